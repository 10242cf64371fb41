/* jobsentry_ckpt.h: when should an iterative MPI application checkpoint?
 *
 * The application reports the end of each iteration and the begin/end of
 * each checkpoint; jobsentry_ckpt_should_checkpoint() is collective over a
 * communicator: rank 0 decides by the dynamic Young/Daly rule (checkpoint
 * once the work since the last checkpoint reaches W_th, computed from the
 * failure rate in the job's environment, the checkpoint cost measured so far
 * and the iteration times seen so far) and broadcasts the answer, so every
 * rank gets the same one. Without JOBSENTRY_MTBF in the environment (not run
 * under jobsentry) it checkpoints every fallback period instead.
 * Environment variables and a Fortran interface: docs/checkpoint.md.
 * Link with -ljobsentry_ckpt. Call from one thread per process. */
#ifndef JOBSENTRY_CKPT_H
#define JOBSENTRY_CKPT_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the environment and starts the clock of the first iteration.
 * fallback_period_s: checkpoint period (seconds of work) when no failure
 * rate is known; JOBSENTRY_CKPT_PERIOD overrides it. Returns 1 when the
 * Young/Daly rule is in force, 0 for the fallback period. Not collective. */
int jobsentry_ckpt_init(double fallback_period_s);

/* An iteration just ended: its time is the time since the previous
 * iteration end, checkpoint end or init. */
void jobsentry_ckpt_iteration_end(void);

/* Around writing a checkpoint: the measured time becomes C. */
void jobsentry_ckpt_begin(void);
void jobsentry_ckpt_end(void);

/* Collective over comm: 1 when the application should checkpoint now (all
 * ranks get rank 0's answer), 0 otherwise. One MPI_Bcast of an int. */
int jobsentry_ckpt_should_checkpoint(MPI_Comm comm);

/* The same for Fortran: comm is the Fortran handle (an INTEGER). Bind with
 *   integer(c_int) function jobsentry_ckpt_should_checkpoint_f(comm) bind(C)
 *     integer(c_int), value :: comm */
int jobsentry_ckpt_should_checkpoint_f(MPI_Fint comm);

/* For logs: the threshold (s of work) the next decision on this rank uses,
 * the mean measured checkpoint cost (s), and the checkpoints taken. */
double jobsentry_ckpt_threshold_s(void);
double jobsentry_ckpt_cost_s(void);
int jobsentry_ckpt_count(void);

#ifdef __cplusplus
}
#endif

#endif
