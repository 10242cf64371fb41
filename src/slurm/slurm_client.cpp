#include "slurm/slurm_client.h"

#include "slurm/annotation.h"

#include <csignal>

extern "C" {
#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
}

#include "slurm/slurm_compat.h"

#include <unistd.h>

#include <cstdlib>
#include <vector>

namespace jobsentry {
namespace {

std::string last_error(const char* what) {
    return std::string(what) + ": " + slurm_strerror(slurm_compat::last_errno());
}

// slurmctld's answer for a job that has finished or that it no longer knows.
void note_job_over(bool* job_over) {
    const int e = slurm_compat::last_errno();
    if (job_over) *job_over = e == ESLURM_JOB_FINISHED || e == ESLURM_ALREADY_DONE || e == ESLURM_INVALID_JOB_ID;
}

}  // namespace

void slurm_client_init() { slurm_init(nullptr); }

std::optional<SlurmJobInfo> slurm_job_info(uint32_t job_id, std::string* error) {
    job_info_msg_t* msg = nullptr;
    if (slurm_load_job(&msg, job_id, SHOW_DETAIL) != SLURM_SUCCESS || !msg) {
        *error = last_error("slurm_load_job");
        return std::nullopt;
    }
    std::optional<SlurmJobInfo> out;
    for (uint32_t i = 0; i < msg->record_count; ++i) {
        slurm_job_info_t& j = msg->job_array[i];
        if (j.job_id != job_id) continue;
        SlurmJobInfo info;
        info.job_id = j.job_id;
        info.uid = j.user_id;
        info.gid = j.group_id;
        if (j.user_name) info.user = j.user_name;
        if (j.work_dir) info.work_dir = j.work_dir;
        info.batch = j.batch_flag != 0;
        if (j.admin_comment) info.admin_comment = j.admin_comment;
        if (j.exc_nodes) info.excluded_nodes = j.exc_nodes;
        info.restart_count = j.restart_cnt;
        info.num_nodes = j.num_nodes;
        if (j.nodes) {
            if (slurm_compat::Hostlist list = slurm_hostlist_create(j.nodes)) {
                while (char* host = slurm_hostlist_shift(list)) {
                    if (info.nodes.size() < 100000) info.nodes.emplace_back(host);
                    free(host);
                }
                slurm_hostlist_destroy(list);
            }
        }
        const uint32_t base = j.job_state & JOB_STATE_BASE;
        info.finished = base > JOB_SUSPENDED || (j.job_state & JOB_COMPLETING);
        if (info.batch) {
            std::vector<char> path(4096);
            slurm_get_job_stdout(path.data(), static_cast<int>(path.size()), &j);
            info.std_out = path.data();
        }
        out = info;
        break;
    }
    slurm_free_job_info_msg(msg);
    if (!out) *error = "slurm_load_job: job " + std::to_string(job_id) + " not in the answer";
    return out;
}

std::string slurm_node_address(const std::string& node, std::string* error) {
    node_info_msg_t* msg = nullptr;
    if (slurm_load_node_single(&msg, const_cast<char*>(node.c_str()), SHOW_ALL) != SLURM_SUCCESS || !msg) {
        *error = last_error("slurm_load_node_single");
        return {};
    }
    std::string address;
    for (uint32_t i = 0; i < msg->record_count; ++i) {
        const node_info_t& n = msg->node_array[i];
        if (n.name && node == n.name) address = n.node_addr && *n.node_addr ? n.node_addr : n.name;
    }
    slurm_free_node_info_msg(msg);
    if (address.empty()) *error = "node " + node + " unknown to slurmctld";
    return address;
}

std::string slurm_set_admin_comment(uint32_t job_id, const std::string& comment, bool* job_over) {
    job_desc_msg_t desc;
    slurm_init_job_desc_msg(&desc);
    slurm_compat::set_job_id(&desc, job_id);
    std::vector<char> text(comment.begin(), comment.end());
    text.push_back('\0');
    desc.admin_comment = text.data();
    if (slurm_update_job(&desc) != SLURM_SUCCESS) {
        note_job_over(job_over);
        return last_error("slurm_update_job(AdminComment)");
    }
    return {};
}

std::string slurm_cancel(uint32_t job_id, bool* job_over) {
    if (slurm_kill_job(job_id, SIGKILL, 0) != SLURM_SUCCESS) {
        note_job_over(job_over);
        return last_error("slurm_kill_job");
    }
    return {};
}

std::string slurm_requeue_job(uint32_t job_id, bool* job_over) {
    if (slurm_requeue(job_id, 0) != SLURM_SUCCESS) {
        note_job_over(job_over);
        return last_error("slurm_requeue");
    }
    return {};
}

std::string slurm_requeue_excluding(uint32_t job_id, const std::string& nodes, bool* requeued) {
    *requeued = false;
    std::string error;
    const auto now = slurm_job_info(job_id, &error);
    if (!now) return error;
    const std::string all = now->excluded_nodes.empty() ? nodes : now->excluded_nodes + "," + nodes;
    // Slurm changes ExcNodeList of pending jobs only: requeue held (so that it
    // is not started again meanwhile), exclude, release. The release is tried
    // whatever the update did: a user's job is never left held.
    if (slurm_requeue(job_id, JOB_REQUEUE_HOLD) != SLURM_SUCCESS) return last_error("slurm_requeue(held)");
    *requeued = true;
    job_desc_msg_t desc;
    slurm_init_job_desc_msg(&desc);
    desc.job_id = job_id;
    std::vector<char> exc(all.begin(), all.end());
    exc.push_back('\0');
    desc.exc_nodes = exc.data();
    if (slurm_update_job(&desc) != SLURM_SUCCESS) error = last_error("slurm_update_job(ExcNodeList)") + " (" + all + ")";
    job_desc_msg_t release;
    slurm_init_job_desc_msg(&release);
    release.job_id = job_id;
    release.priority = INFINITE;  // what `scontrol release` sends
    if (slurm_update_job(&release) != SLURM_SUCCESS) {
        const std::string e = last_error("slurm_update_job(release)");
        error = error.empty() ? e : error + "; " + e;
    }
    return error;
}

std::string slurm_drain_node(const std::string& node, const std::string& reason) {
    update_node_msg_t msg;
    slurm_init_update_node_msg(&msg);
    std::vector<char> name(node.begin(), node.end()), why(reason.begin(), reason.end());
    name.push_back('\0');
    why.push_back('\0');
    msg.node_names = name.data();
    msg.node_state = NODE_STATE_DRAIN;
    msg.reason = why.data();
    msg.reason_uid = getuid();
    if (slurm_update_node(&msg) != SLURM_SUCCESS) return last_error("slurm_update_node(DRAIN)");
    return {};
}

std::string slurm_set_comment_clause(uint32_t job_id, const std::string& key, const std::string& clause,
                                     std::string* comment) {
    std::string err;
    auto now = slurm_job_info(job_id, &err);
    if (!now) return err;
    *comment = with_clause(now->admin_comment, key, clause);
    return slurm_set_admin_comment(job_id, *comment);
}

std::string slurm_notify(uint32_t job_id, bool batch, int signal, const std::string& message) {
    if (batch) {
        if (slurm_kill_job(job_id, static_cast<uint16_t>(signal), KILL_JOB_BATCH) != SLURM_SUCCESS)
            return last_error("slurm_kill_job(batch shell)");
        return {};
    }
    std::vector<char> text(message.begin(), message.end());
    text.push_back('\0');
    if (slurm_notify_job(job_id, text.data()) != SLURM_SUCCESS) return last_error("slurm_notify_job");
    return {};
}

}  // namespace jobsentry
