#!/usr/bin/env bash
# Runs one of five real, unmodified MPI applications from Debian 12 (installed
# by scripts/install-apps.sh) on a problem scaled to a wanted healthy run time.
#
#   launch.sh list                      the application names, one per line
#   launch.sh NAME DIR NP [SECONDS]     prepare inputs in DIR, then exec mpirun
#   launch.sh NAME timing DIR           the app's own run time (s) from DIR/app.out
#   launch.sh calibrate FILE            this machine's rates into FILE (JOBSENTRY_APP_RATES, below)
#
# NAME DIR NP [SECONDS]: DIR is created if needed (any user who may create it;
# root or not) and all input and output files of the application go there
# (the application runs with DIR as its working directory). The script then
# `exec`s `mpirun --oversubscribe -np NP ...`: its PID becomes mpirun's, so a
# signal sent to it reaches mpirun, and its exit status is mpirun's (0 on a
# healthy run of each of the apps).
#
# Output: the application's stdout goes to the caller's stdout and its stderr to
# the caller's stderr, and both are also appended (by two `tee -a`, so their
# lines interleave as they arrive) to DIR/app.out, which is emptied first. The
# tee processes outlive the exec; they end a few milliseconds after mpirun,
# when the pipes close (`timing` waits up to 5 s for the line it needs).
# DIR/app.steps gets the arrival time (epoch seconds) of each line LAMMPS, CP2K
# or NWChem prints once per step: the job's pace as the application tells it.
#
# SECONDS (default 60) sets the amount of work (time steps), never a time limit:
# steps = (SECONDS - SETUP) x RATE, with RATE and SETUP measured on the 2-core
# test machine at NP=4 while nothing else ran (RATE_*/SETUP_* below), or on
# this machine (JOBSENTRY_APP_RATES, below). Each run
# does a fixed, deterministic amount of work, so on a loaded or slower machine
# it takes longer. Precision: with the 2 cores to itself, a SECONDS=60 run
# took 60.0-60.5 s (lammps), 57 s (cp2k), 59 s (nwchem) from start to exit,
# SECONDS=30 took 30.1, 28.1, 27.6 s: within about -10 %/+2 % (repeated runs
# of the same work varied by +-5 %). With other
# CPU-heavy jobs on the same 2 cores the same work took up to 1.4x (nwchem
# 81 s) and, for cp2k, 2x longer: give tests generous timeouts (>= 2 x SECONDS).
# Other NP values do the same work (the rates are only calibrated for NP=4).
# NWChem's steps are 5x slower on a virtual machine than on bare metal
# (ARMCI's many small system calls; LAMMPS and CP2K keep their rates): 16
# steps 28.4 s, 48 steps 81.2 s from start to exit -> 0.6 steps/s after 2 s
# of start-up; RATE_NWCHEM is the virtual machine's.
# HPCC's and Quantum ESPRESSO's built-in figures were measured with the 2 cores
# shared with other builds (load average 7.7); on a quiet machine of another
# kind their runs were 5-8x shorter than SECONDS asked, which ended hang tests
# before their injection. `calibrate` measures both per boot, as the others.
#
# Environment: the caller's environment is used as is (OMPI_ALLOW_RUN_AS_ROOT,
# OMPI_ALLOW_RUN_AS_ROOT_CONFIRM, OMPI_MCA_* are read by mpirun itself);
# OMP_NUM_THREADS is set to 1 unless set. Ranks are children of mpirun and
# inherit its environment; in addition mpirun is given `-x VAR` for
# OMP_NUM_THREADS and for every JOBSENTRY_* variable that is set (among them
# JOBSENTRY_INJECT and JOBSENTRY_INJECT_MARK), so they also reach ranks on
# other nodes. LD_PRELOAD is taken out of this script's own environment (so
# that neither mpirun nor tee nor sed is preloaded) and handed to the ranks
# only, as `-x LD_PRELOAD=<value>`. APPS_MPIRUN_ARGS (word-split) adds options
# to mpirun.
# APPS_MPI=mpich runs the application's MPICH build under MPICH's Hydra instead
# (`mpiexec.mpich -n NP`, the variables above as `-genv VAR VALUE`): only NWChem
# has one in Debian (nwchem-mpich, installed by scripts/install-apps.sh --mpich;
# Debian 13's: Debian 12's computes wrongly, below); the rates above are the
# Open MPI build's (bench/ sizes its runs from them).
set -euo pipefail

APPS=(lammps cp2k nwchem hpcc qe)

# Healthy-run rates at NP=4 on the idle 2-core test machine (Open MPI 4.1.4,
# btl self,vader, oversubscribed). Measured with `launch.sh NAME timing DIR`.
RATE_LAMMPS=180     # LJ melt time steps per second, 32000 atoms
RATE_CP2K=19        # QS MD steps per second, 1 water molecule (H2O.inp)
RATE_NWCHEM=0.6     # B3LYP/6-31G* QMD steps per second, 1 water molecule (2026-11-27, above)
SETUP_CP2K=4        # s of start-up and final output, not scaled
SETUP_NWCHEM=2
SECONDS_HPCC_2000=88  # HPCC's whole suite at HPL N=2000 (one machine; another took 11: calibrated); grows as N^2
RATE_QE=2.0         # pw.x MD steps per second, Si2, 4x4x4 k-points (one machine measured 0.21; calibrated)
SETUP_QE=1

usage() {
  echo "usage: $0 list | $0 NAME DIR NP [SECONDS] | $0 NAME timing DIR | $0 calibrate FILE" >&2
  echo "  NAME: ${APPS[*]}" >&2
  exit 2
}

# The rates above are one machine's; another machine may be 3x slower (LAMMPS
# and CP2K) or faster (NWChem), and a hang-free test's SECONDS would then mean
# three times the run asked for. `launch.sh calibrate FILE` measures LAMMPS's,
# CP2K's, NWChem's and QE's rates and HPCC's time on this machine (a small fixed run each, NP=4,
# about 60 s in all on the 2-core machine, more with cold caches) and writes them to FILE with this boot's id; a launch with
# JOBSENTRY_APP_RATES=FILE uses them instead of the built-in ones when FILE is
# of this boot (else it says so and keeps the built-in ones). The tests' CTest
# fixture apps_calibrate does this once per boot (tests/mpi/CMakeLists.txt).
boot_id() { cat /proc/sys/kernel/random/boot_id; }
rates_of_this_boot() { [ -r "$1" ] && grep -qx "BOOT_ID=$(boot_id)" "$1"; }
load_rates() {
  local f=${JOBSENTRY_APP_RATES:-} key value
  [ -n "$f" ] || return 0
  rates_of_this_boot "$f" || { echo "launch.sh: $f is not of this boot: the built-in rates are used" >&2; return 0; }
  while IFS== read -r key value; do
    case $key in
      RATE_LAMMPS | RATE_CP2K | RATE_NWCHEM | RATE_QE | SECONDS_HPCC_2000)
        [[ $value =~ ^[0-9]+([.][0-9]+)?$ ]] && [ "$value" != 0 ] && printf -v "$key" %s "$value" ;;
    esac
  done <"$f"
}
calibrate() {
  local f=$1 dir name secs setup steps took rate out=()
  if rates_of_this_boot "$f"; then echo "launch.sh: rates of this boot kept: $(grep '^RATE_' "$f" | paste -sd' ')"; return 0; fi
  dir=$(mktemp -d /tmp/jobsentry-calibrate.XXXXXX)
  chmod 0755 "$dir"
  # SECONDS at the built-in rates: about 360 LAMMPS steps, 38 CP2K steps, 17 NWChem steps, 10 QE steps,
  # HPCC at N = 960. NWChem's first steps are cheaper than later ones: 4 steps (3.0 s here) made
  # 5 steps/s of it, and a 90-s run of 440 steps took 380 s; 17 steps (11.3 s) give 1.8, near the
  # 1.2 of that long run. HPCC's figure only sizes its hang test (a hang at 15 s of a 90-s run) and
  # bench/'s runs of it: its suite has fixed costs (about 7 s of N=1280's 52 s on the 2-core
  # machine), so a small N overstates its time per N^2 and runs sized from it come out shorter than
  # asked. At N = 960 (12-20 s there; N = 1360, 40 s at the built-in figure, took 26-48 s) a 90-s
  # ask lasts about 70 s, past the 15 + 45 s in which its test wants the hang found.
  # QE's 10 steps stay: its start-up is about 8 s of their 10 (0.2 s a step), so fewer steps would
  # rate it slower still, and its runs (a hang at 12 s) would end sooner.
  for name in lammps:2:0 cp2k:6:$SETUP_CP2K nwchem:30:$SETUP_NWCHEM qe:6:$SETUP_QE hpcc:20:0; do
    IFS=: read -r name secs setup <<<"$name"
    env -u JOBSENTRY_APP_RATES -u APPS_MPI bash "$0" "$name" "$dir/$name" 4 "$secs" >/dev/null 2>"$dir/$name.err" ||
      { tail -5 "$dir/$name.err" >&2; echo "launch.sh: calibrating $name failed (above)" >&2; return 1; }
    steps=$(sed -nE "s/^launch.sh: $name, ([0-9]+) steps .*/\1/p" "$dir/$name.err")
    case $name in
      # CP2K's own mean time per MD step (its start-up varies from 0.3 to 4 s between machines).
      cp2k) took=$(awk '/CPU time per MD step/ { t = $NF } END { if (t != "") print t * n }' n="$steps" "$dir/$name/app.out") setup=0 ;;
      *) took=$(bash "$0" "$name" timing "$dir/$name") || took= ;;
    esac
    [[ $steps =~ ^[1-9][0-9]*$ && $took =~ ^[0-9]+([.][0-9]+)?$ ]] ||
      { echo "launch.sh: calibrating $name: no step count or run time in $dir/$name (steps '$steps', time '$took')" >&2; return 1; }
    if [ "$name" = hpcc ]; then  # "steps" is HPL's N; the suite's time grows as N^2
      [ "$took" != 0 ] || took=1  # its clock has 1-s steps
      rate=$(awk -v n="$steps" -v t="$took" 'BEGIN { printf "%.3g", t * (2000 / n) ^ 2 }')
      echo "launch.sh: hpcc: N=$steps in $took s: $rate s at N=2000" >&2
      out+=("SECONDS_HPCC_2000=$rate")
      continue
    fi
    # LAMMPS's loop time has no start-up in it; NWChem's and QE's totals have SETUP seconds of it.
    rate=$(awk -v n="$steps" -v t="$took" -v s="$setup" 'BEGIN { d = t - s; if (d < 0.5) d = 0.5; printf "%.3g", n / d }')
    echo "launch.sh: $name: $steps steps in $took s (start-up $setup s): $rate steps/s" >&2
    out+=("RATE_${name^^}=$rate")
  done
  rm -rf "$dir"
  { echo "BOOT_ID=$(boot_id)"; printf '%s\n' "${out[@]}"; } >"$f.tmp"
  mv "$f.tmp" "$f"
  echo "launch.sh: rates measured: ${out[*]}"
}
load_rates

# steps = max(1, round((SECONDS - SETUP) x RATE))
steps() { awk -v s="$1" -v setup="$2" -v r="$3" 'BEGIN { n = int((s - setup) * r + 0.5); print (n < 1 ? 1 : n) }'; }

# The app's own figure for its run, in seconds, from DIR/app.out:
#  lammps: "Loop time of 61.2345 on 4 procs for 5100 steps with 32000 atoms"
#          -> field 4 (the MD loop only, without start-up).
#  cp2k:   timing table row "CP2K  1  1.0  0.006  0.008  61.661  61.662"
#          -> field 7 (maximum over ranks of the total run time).
#  nwchem: "Total times  cpu:  1.2s  wall:  61.3s" -> the wall figure (whole run).
#  hpcc:   hpccoutf.txt's first and last "Current time (EPOCH)" -> their difference
#          (whole suite, 1 s resolution).
#  qe:     "PWSCF        :      9.68s CPU   1m35.01s WALL" -> the WALL figure in s.
timing() {
  local name=$1 out=$2/app.out pattern _
  case $name in
    lammps) pattern='^Loop time of ' ;;
    cp2k)   pattern='^ CP2K  +1 ' ;;
    nwchem) pattern='^ Total times +cpu:' ;;
    hpcc)   pattern='^End of Summary section' out=$2/hpccoutf.txt ;;
    qe)     pattern='^ +PWSCF +:.*WALL' ;;
    *) usage ;;
  esac
  [ -f "$out" ] || { echo "launch.sh: no $out" >&2; exit 1; }
  # tee may still be writing the last lines just after mpirun returned.
  for _ in $(seq 50); do grep -Eq "$pattern" "$out" && break; sleep 0.1; done
  case $name in
    lammps) grep -E "$pattern" "$out" | tail -1 | awk '{print $4}' ;;
    cp2k)   grep -E "$pattern" "$out" | tail -1 | awk '{print $7}' ;;
    nwchem) grep -E "$pattern" "$out" | tail -1 | sed -E 's/.*wall: *([0-9.]+)s.*/\1/' ;;
    hpcc)   sed -nE 's/^Current time \(([0-9]+)\).*/\1/p' "$out" | sed -n '1p;$p' | paste -sd' ' |
              awk 'NF == 2 { print $2 - $1 }' ;;
    qe)     grep -E "$pattern" "$out" | tail -1 | sed -E 's/.*CPU +//; s/s? *WALL.*//' |
              awk -F'[hm]' '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }' ;;
  esac | grep . || { echo "launch.sh: no $name timing in $out" >&2; exit 1; }
}

[ $# -ge 1 ] || usage
if [ "$1" = list ]; then printf '%s\n' "${APPS[@]}"; exit 0; fi
if [ $# -eq 3 ] && [ "$2" = timing ]; then timing "$1" "$3"; exit 0; fi
if [ $# -eq 2 ] && [ "$1" = calibrate ]; then calibrate "$2"; exit; fi
[ $# -eq 3 ] || [ $# -eq 4 ] || usage
name=$1 dir=$2 np=$3 secs=${4:-60}
[[ $np =~ ^[1-9][0-9]*$ ]] || usage
[[ $secs =~ ^[0-9]+([.][0-9]+)?$ ]] || usage
[[ " ${APPS[*]} " == *" $name "* ]] || usage

preload=${LD_PRELOAD-}
unset LD_PRELOAD
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}

mkdir -p "$dir"
cd "$dir"

APPS_MPI=${APPS_MPI:-openmpi}
case $APPS_MPI:$name in
  openmpi:* | mpich:nwchem) ;;
  mpich:*) echo "launch.sh: $name has no MPICH build in Debian (APPS_MPI=mpich: only nwchem, from nwchem-mpich)" >&2; exit 2 ;;
  *) echo "launch.sh: APPS_MPI='$APPS_MPI': accepted are openmpi and mpich" >&2; exit 2 ;;
esac

case $name in
  lammps)
    # examples/melt/in.melt from lammps-examples (3d Lennard-Jones melt), with
    # the box 20x20x20 fcc cells (32000 atoms) instead of 10x10x10 and the
    # number of steps scaled; nothing else changed (thermo output every 50 steps).
    n=$(steps "$secs" 0 "$RATE_LAMMPS")
    src=/usr/share/lammps/examples/melt/in.melt
    [ -f "$src" ] || { echo "launch.sh: $src missing: run scripts/install-apps.sh" >&2; exit 1; }
    sed -E -e 's/^region([[:space:]]+)box block 0 10 0 10 0 10/region\1box block 0 20 0 20 0 20/' \
           -e "s/^run([[:space:]]+)250\$/run\\1$n/" "$src" > in.melt
    if ! grep -q 'block 0 20 0 20 0 20' in.melt || ! grep -Eq "^run[[:space:]]+$n\$" in.melt; then
      echo "launch.sh: $src is not the expected LJ melt input" >&2; exit 1
    fi
    cmd=(lmp -in in.melt -log log.lammps)
    ;;
  cp2k)
    # /usr/share/doc/cp2k/examples/H2O.inp from the cp2k package: Quickstep
    # (GPW, Pade LDA, DZVP-GTH) Born-Oppenheimer MD of one water molecule; only
    # the number of MD steps is changed. Basis sets and potentials come from
    # cp2k-data (/usr/share/cp2k), found by cp2k without configuration.
    n=$(steps "$secs" "$SETUP_CP2K" "$RATE_CP2K")
    src=/usr/share/doc/cp2k/examples/H2O.inp
    [ -f "$src" ] || { echo "launch.sh: $src missing: run scripts/install-apps.sh" >&2; exit 1; }
    sed -E "s/^([[:space:]]*)STEPS 5\$/\\1STEPS $n/" "$src" > H2O.inp
    grep -Eq "^[[:space:]]*STEPS $n\$" H2O.inp \
      || { echo "launch.sh: $src is not the expected H2O example" >&2; exit 1; }
    cmd=(cp2k.psmp -i H2O.inp)
    ;;
  nwchem)
    # NWChem ships no example inputs in Debian; this is a minimal one:
    # B3LYP/6-31G* Born-Oppenheimer MD (task dft qmd) of one water molecule,
    # basis from nwchem-data's library. Scratch and permanent files go to DIR.
    n=$(steps "$secs" "$SETUP_NWCHEM" "$RATE_NWCHEM")
    cat > h2o.nw <<NW
start h2o
title "water B3LYP/6-31G* QMD, $n steps"
permanent_dir .
scratch_dir .
geometry units angstrom noautosym
  O   0.000000    0.000000   -0.065587
  H   0.000000   -0.757136    0.520545
  H   0.000000    0.757136    0.520545
end
basis
  * library 6-31G*
end
dft
  xc b3lyp
  print low
end
qmd
  nstep_nucl $n
  dt_nucl 10
  targ_temp 300
  thermostat svr 100
  print_xyz 1000000
end
task dft qmd
NW
    cmd=("nwchem.$APPS_MPI" h2o.nw)
    if ! command -v "${cmd[0]}" >/dev/null; then
      hint=; [ "$APPS_MPI" = mpich ] && hint=" --mpich"
      echo "launch.sh: ${cmd[0]} missing: run scripts/install-apps.sh$hint" >&2; exit 1
    fi
    # Debian 12's MPICH build (nwchem-mpich 7.0.2-4, Global Arrays over ComEx, MPICH 4.0.2) computes
    # wrongly at 2 ranks or more: this water's B3LYP energy came out +5310 Eh instead of -76.41 (right
    # at 1 rank), its SCF stagnates, and the QMD run aborts after minutes. Debian 13's is right.
    if [ "$APPS_MPI" = mpich ] && [[ $(mpichversion 2>/dev/null) =~ MPICH\ Version:[[:space:]]*4\.0\. ]]; then
      echo "launch.sh: NWChem's MPICH build computes wrongly at 2+ ranks under MPICH 4.0 (Debian 12);" \
        "run it under Debian 13's MPICH (scripts/debian13-root.sh run ...) or use APPS_MPI=openmpi" >&2
      exit 2
    fi
    ;;
  hpcc)
    # HPC Challenge (hpcc package): HPL, DGEMM, STREAM, PTRANS, RandomAccess,
    # FFT and the latency/bandwidth rings in one run, on 2x2 ranks (NP other
    # than 4 runs the same 2x2 grid's input: HPCC needs P x Q <= NP). Its
    # input is the package's example (/usr/share/doc/hpcc/examples/_hpccinf.txt)
    # with N scaled; all sizes of the suite follow N's memory, so the work
    # grows about as N^2 (MPIRandomAccess dominates at these sizes).
    src=/usr/share/doc/hpcc/examples/_hpccinf.txt
    [ -f "$src" ] || { echo "launch.sh: $src missing: run scripts/install-apps.sh" >&2; exit 1; }
    n=$(awk -v s="$secs" -v t="$SECONDS_HPCC_2000" 'BEGIN { n = int(2000 * sqrt(s / t) / 80 + 0.5) * 80; print (n < 400 ? 400 : n) }')
    sed -E "s/^1000( +Ns)\$/$n\1/" "$src" > hpccinf.txt
    grep -Eq "^$n +Ns\$" hpccinf.txt || { echo "launch.sh: $src is not the expected HPCC input" >&2; exit 1; }
    rm -f hpccoutf.txt
    cmd=(hpcc)
    ;;
  qe)
    # Quantum ESPRESSO's pw.x (quantum-espresso package; pseudopotential from
    # /usr/share/espresso/pseudo): Born-Oppenheimer MD of bulk silicon (2
    # atoms, LDA, 20 Ry, 4x4x4 k-points); the number of MD steps is scaled.
    n=$(steps "$secs" "$SETUP_QE" "$RATE_QE")
    pseudo=/usr/share/espresso/pseudo/Si.pz-vbc.UPF
    [ -f "$pseudo" ] || { echo "launch.sh: $pseudo missing: run scripts/install-apps.sh" >&2; exit 1; }
    cat > si.in <<QE
&control
  calculation = 'md', nstep = $n, dt = 20, pseudo_dir = '/usr/share/espresso/pseudo', outdir = '.', prefix = 'si'
/
&system
  ibrav = 2, celldm(1) = 10.20, nat = 2, ntyp = 1, ecutwfc = 20.0
/
&electrons
  conv_thr = 1e-8
/
&ions
/
ATOMIC_SPECIES
  Si 28.086 Si.pz-vbc.UPF
ATOMIC_POSITIONS alat
  Si 0.00 0.00 0.00
  Si 0.26 0.24 0.25
K_POINTS automatic
  4 4 4 0 0 0
QE
    cmd=(pw.x -in si.in)
    ;;
  *) usage ;;
esac

# Open MPI: -x VAR[=VALUE]; Hydra: -genv VAR VALUE.
forward() {
  if [ "$APPS_MPI" = mpich ]; then mpirun_args+=(-genv "$1" "$2"); else mpirun_args+=(-x "$1=$2"); fi
}
launcher=mpirun mpirun_args=(--oversubscribe -np "$np")
[ "$APPS_MPI" = mpich ] && launcher=mpiexec.mpich mpirun_args=(-n "$np")
forward OMP_NUM_THREADS "$OMP_NUM_THREADS"
while IFS= read -r var; do
  forward "$var" "${!var}"
done < <(compgen -e | grep '^JOBSENTRY_' || true)
[ -n "$preload" ] && forward LD_PRELOAD "$preload"
# shellcheck disable=SC2206
[ -n "${APPS_MPIRUN_ARGS-}" ] && mpirun_args+=($APPS_MPIRUN_ARGS)

# app.steps: when each line the application prints once per step arrived (epoch seconds), the
# job's pace as the application itself tells it (bench/slow_detection.sh compares a faulted run's
# steps with a healthy run's, step by step). LAMMPS prints a thermo line every 50 steps.
case $name in
  lammps) step_line='^ +[0-9]+ +-?[0-9.]+ +-?[0-9.]' ;;
  cp2k)   step_line='^ MD\| Step number' ;;
  nwchem) step_line='QMD Run Information' ;;
  *)      step_line='' ;;
esac
stamp_steps() { grep --line-buffered -E "$step_line" | while IFS= read -r _; do echo "$EPOCHREALTIME"; done; }
: > app.out
: > app.steps
if [ -n "$step_line" ]; then
  # tee -p: a failed stamp never breaks the application's output.
  exec > >(tee -p -a app.out >(stamp_steps >app.steps)) 2> >(tee -a app.out >&2)
else
  exec > >(tee -a app.out) 2> >(tee -a app.out >&2)
fi
echo "launch.sh: $name, $n steps for ~${secs} s at NP=4, in $PWD" >&2
exec "$launcher" "${mpirun_args[@]}" "${cmd[@]}"
