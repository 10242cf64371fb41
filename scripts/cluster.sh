#!/usr/bin/env bash
# A real Slurm 22.05 cluster with accounting on this one machine, for end-to-end tests and
# the demo. Debian 12, as root; there is no systemd, so every daemon is started directly.
#
# Nodes: the host itself (partition `debug`, the default) and n1..n4 (partition `multi`),
# each a slurmd of its own (`slurmd -N nX`, Debian's Slurm is built for several slurmd per
# host: files slurmd-%n.*, cgroups slurm_<node>) in a network namespace jsnX with address
# 10.77.0.1X on the bridge jsbr0 (10.77.0.1, where slurmctld is reached). The namespaces
# have no default route: traffic only between them and the host. They share the host's
# file systems, pids, users and munged. Multi-node MPI jobs run over TCP on 10.77.0.0/24.
#
#   cluster.sh up                   install packages, write the configuration, create the
#                                   bridge and namespaces, start munged, MariaDB, slurmdbd,
#                                   slurmctld and the five slurmd, wait until every node is
#                                   idle and accounting answers; create the account
#                                   `jobsentry` and the users jsuser and jsother. Idempotent.
#   cluster.sh down                 stop all of them (running jobs are cancelled first) and
#                                   remove the namespaces and the bridge.
#   cluster.sh status               which daemons run, and sinfo; exit 0 only if all are up.
#   cluster.sh plugin PATH [ARGS]   enable a SPANK plugin site-wide: writes
#                                   /etc/slurm/plugstack.conf.d/jobsentry.conf
#                                   (`optional PATH ARGS`); new jobs use it, no restart.
#   cluster.sh plugin --remove      delete that file.
#
# Environment: CLUSTER_MULTI=0 leaves out n1..n4 (no bridge, no namespaces: slurmctld at
# 127.0.0.1); CLUSTER_PORT_BASE=P puts slurmctld, slurmd and slurmdbd on P, P+1, P+2
# (default 6817, Slurm's own). The Debian 13 stage runs a cluster in its root with both
# (CLUSTER_MULTI=0 CLUSTER_PORT_BASE=6917). MariaDB never listens on the network.
#
# Logs: /var/log/jobsentry-cluster/{slurmctld,slurmd-<node>,slurmdbd,mariadb,munged}.log
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

LOGDIR=/var/log/jobsentry-cluster
STATEDIR=/var/lib/jobsentry-cluster
RUNDIR=/run/jobsentry-cluster
SLURM_ETC=/etc/slurm
PLUGIN_FILE=$SLURM_ETC/plugstack.conf.d/jobsentry.conf
CLUSTER=jobsentry
ACCOUNT=jobsentry
USERS=(jsuser jsother)
MYSQLD_PID=/run/mysqld/mysqld.pid
MUNGED_PID=/run/munge/munged.pid
TIMEOUT=${CLUSTER_TIMEOUT:-60}   # seconds to wait for each daemon

host=$(hostname -s)
# The namespace nodes: name, namespace, address (the bridge holds 10.77.0.1/24).
case ${CLUSTER_MULTI:-1} in
  1) NS_NODES=(n1 n2 n3 n4) CTLD_ADDR=10.77.0.1 ;;
  0) NS_NODES=() CTLD_ADDR=127.0.0.1 ;;
  *) echo "cluster: error: CLUSTER_MULTI='$CLUSTER_MULTI': accepted are 1 (nodes n1..n4, the default) and 0" >&2; exit 2 ;;
esac
PORT_BASE=${CLUSTER_PORT_BASE:-6817}
[[ $PORT_BASE =~ ^[0-9]+$ ]] && [ "$PORT_BASE" -ge 1024 ] && [ "$PORT_BASE" -le 65000 ] ||
  { echo "cluster: error: CLUSTER_PORT_BASE='$PORT_BASE': a port from 1024 to 65000 is accepted" >&2; exit 2; }
BRIDGE=jsbr0
BRIDGE_ADDR=10.77.0.1
addr_of() { echo "10.77.0.1${1#n}"; }                # n1 -> 10.77.0.11
ALL_NODES=("$host" "${NS_NODES[@]}")

say() { echo "cluster: $*"; }

die() { echo "cluster: error: $*" >&2; exit 1; }

# Readiness checks leave their last answer here, and the sizes of the logs before a daemon
# is started are kept, so that an error shows what this attempt printed.
CHECK_OUT=$(mktemp)
trap 'rm -f "$CHECK_OUT"' EXIT
declare -A LOGMARK=()
mark_logs() { local f; for f in "$@"; do LOGMARK[$f]=$(stat -c %s "$f" 2>/dev/null || echo 0); done; }

# die naming the daemon, with the last answer of its readiness check and the tail of its logs
fail_daemon() {
  local name=$1; shift
  echo "cluster: error: $name did not start or is not ready" >&2
  if [ -s "$CHECK_OUT" ]; then
    echo "---- last answer of the readiness check:" >&2
    tail -n 10 "$CHECK_OUT" >&2
  fi
  local f
  for f in "$@"; do
    [ -s "$f" ] || continue
    echo "---- last lines of $f" >&2
    tail -c +"$(( ${LOGMARK[$f]:-0} + 1 ))" "$f" | tail -n 25 >&2
  done
  exit 1
}

need_root() { [ "$(id -u)" -eq 0 ] || die "must run as root"; }

# pid from a pid file if that process is alive and its command is one of the given names
pid_of() {
  local file=$1; shift
  local pid comm n
  [ -r "$file" ] || return 1
  pid=$(tr -dc '0-9' <"$file")
  [ -n "$pid" ] && [ -r "/proc/$pid/comm" ] || return 1
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
  for n in "$@"; do
    if [ "$comm" = "$n" ]; then echo "$pid"; return 0; fi
  done
  return 1
}

# pids of processes whose command (comm) is one of the names and whose root directory is
# ours: a cluster in a chroot (the Debian 13 stage) never touches the host's daemons
pids_named() {
  local n p me
  me=$(stat -L -c %d:%i /proc/self/root)
  for n in "$@"; do
    for p in $(pgrep -x "$n"); do
      [ "$(stat -L -c %d:%i "/proc/$p/root" 2>/dev/null)" = "$me" ] && echo "$p"
    done
  done
  return 0
}

# wait up to $1 seconds until the command $2... succeeds; its output goes to $CHECK_OUT
wait_for() {
  local secs=$1; shift
  local end=$((SECONDS + secs))
  until "$@" >"$CHECK_OUT" 2>&1; do
    [ $SECONDS -lt $end ] || return 1
    # a client that cannot even read the configuration will not succeed later
    ! grep -qE 'fatal:|Parsing error|Unable to process configuration' "$CHECK_OUT" || return 1
    sleep 0.3
  done
}

# wait until the Slurm daemon NAME answers CHECK; fail early when it died (its pid file
# names no live process 3 s after the start); LOGS... are shown on failure
wait_daemon() {
  local name=$1 pidfile=$2 check=$3; shift 3
  local start=$SECONDS end=$((SECONDS + TIMEOUT))
  until "$check" >"$CHECK_OUT" 2>&1; do
    if [ $SECONDS -ge $end ] ||
       grep -qE 'fatal:|Parsing error|Unable to process configuration' "$CHECK_OUT"; then
      fail_daemon "$name" "$@"
    fi
    if [ $((SECONDS - start)) -ge 3 ] && ! pid_of "$pidfile" "$name" "$name-wlm" >/dev/null; then
      echo "cluster: $name exited" >&2
      fail_daemon "$name" "$@"
    fi
    sleep 0.3
  done
}

# SIGTERM the process, wait until it is gone, SIGKILL after $3 seconds;
# $4 = quiet: the caller has already said it stops it
stop_pid() {
  local name=$1 pid=$2 secs=${3:-30}
  [ "${4:-}" = quiet ] || say "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || return 0
  local end=$((SECONDS + secs))
  while kill -0 "$pid" 2>/dev/null; do
    if [ $SECONDS -ge $end ]; then
      say "$name (pid $pid) still runs after ${secs}s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
      break
    fi
    sleep 0.2
  done
}

# --------------------------------------------------------------------------- readiness tests
# (their output is the answer that error messages show)
munge_ok()   { munge -n </dev/null | unmunge; }
mysql_ok()   { mysqladmin --no-defaults --socket=/run/mysqld/mysqld.sock -uroot ping; }
dbd_ok()     { timeout 10 sacctmgr -n -P list cluster format=cluster; }
ctld_ok()    { local out; out=$(timeout 10 scontrol ping 2>&1) || true; echo "$out"; [[ $out == *"is UP"* ]]; }
node_state() { timeout 10 sinfo -h -N -n "${1:-$host}" -o %T 2>/dev/null | head -n1; }
node_idle()  { case "$(node_state "${1:-$host}")" in idle|mixed|allocated|completing) return 0 ;; *) return 1 ;; esac; }
all_idle()   { local n; for n in "${ALL_NODES[@]}"; do node_idle "$n" || return 1; done; }

# --------------------------------------------------------------------------- configuration
render() { # template -> stdout
  sed -e "s|@HOST@|$host|g" -e "s|@LOGDIR@|$LOGDIR|g" -e "s|@STATEDIR@|$STATEDIR|g" \
      -e "s|@RUNDIR@|$RUNDIR|g" -e "s|@DBPASS@|${dbpass:-}|g" -e "s|@CTLD_ADDR@|$CTLD_ADDR|g" \
      -e "s|@CTLD_PORT@|$PORT_BASE|g" -e "s|@SLURMD_PORT@|$((PORT_BASE + 1))|g" -e "s|@DBD_PORT@|$((PORT_BASE + 2))|g" "$1"
}

# slurm.conf's lines for the namespace nodes and their partition
ns_node_lines() {
  [ ${#NS_NODES[@]} -gt 0 ] || return 0
  local n
  for n in "${NS_NODES[@]}"; do echo "NodeName=$n NodeAddr=$(addr_of "$n") CPUs=16 RealMemory=1000 State=UNKNOWN"; done
  echo "PartitionName=multi Nodes=$(IFS=,; echo "${NS_NODES[*]}") MaxTime=INFINITE State=UP"
}

# install $1 (a rendered temp file) as $2 with owner $3 and mode $4; return 0 if it changed
install_conf() {
  local src=$1 dst=$2 owner=$3 mode=$4 unchanged=1
  [ -f "$dst" ] && cmp -s "$src" "$dst" || unchanged=0
  install -o "${owner%:*}" -g "${owner#*:}" -m "$mode" "$src" "$dst"
  rm -f "$src"
  [ $unchanged -eq 0 ]
}

conf_changed_slurm=0
conf_changed_dbd=0

write_config() {
  [ -d /sys/fs/cgroup/freezer ] ||
    die "cgroup v1 freezer is not mounted at /sys/fs/cgroup/freezer (proctrack/cgroup with cgroup/v1 needs it)"
  install -d -m 755 "$SLURM_ETC" "$SLURM_ETC/plugstack.conf.d"
  if ! grep -qs '^[[:space:]]*include[[:space:]]\+/etc/slurm/plugstack.conf.d/\*\.conf' "$SLURM_ETC/plugstack.conf"; then
    echo "include /etc/slurm/plugstack.conf.d/*.conf" >>"$SLURM_ETC/plugstack.conf"
  fi
  # writable by SlurmUser (daemons chdir there), sticky so that munged accepts it
  install -d -m 1775 -o root -g slurm "$LOGDIR"
  install -d -m 755 -o slurm -g slurm "$STATEDIR" "$STATEDIR/slurmctld"
  install -d -m 755 -o slurm -g slurm "$RUNDIR"
  local f
  for f in slurmctld.log slurmdbd.log; do
    [ -e "$LOGDIR/$f" ] || install -o slurm -g slurm -m 644 /dev/null "$LOGDIR/$f"
  done
  [ -e "$LOGDIR/munged.log" ] || install -o munge -g munge -m 644 /dev/null "$LOGDIR/munged.log"
  local n
  for n in "${ALL_NODES[@]}"; do
    [ -e "$LOGDIR/slurmd-$n.log" ] || install -o root -g root -m 644 /dev/null "$LOGDIR/slurmd-$n.log"
    install -d -m 755 -o root -g root "$STATEDIR/slurmd-$n"
    install -d -m 1777 -o root -g root "$STATEDIR/tmp-$n"
  done
  [ -e "$LOGDIR/mariadb.log" ] || install -o mysql -g adm -m 644 /dev/null "$LOGDIR/mariadb.log"

  # the database password of the slurm user, made once
  if [ ! -s "$STATEDIR/db-password" ]; then
    (umask 077; head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' >"$STATEDIR/db-password")
  fi
  dbpass=$(cat "$STATEDIR/db-password")

  local tmp
  tmp=$(mktemp); { render "$top/etc/slurm/slurm.conf"; ns_node_lines; } >"$tmp"
  install_conf "$tmp" "$SLURM_ETC/slurm.conf" root:root 644 && conf_changed_slurm=1
  tmp=$(mktemp); render "$top/etc/slurm/cgroup.conf" >"$tmp"
  install_conf "$tmp" "$SLURM_ETC/cgroup.conf" root:root 644 && conf_changed_slurm=1
  tmp=$(mktemp); render "$top/etc/slurm/slurmdbd.conf" >"$tmp"
  install_conf "$tmp" "$SLURM_ETC/slurmdbd.conf" slurm:slurm 600 && conf_changed_dbd=1
  # parse slurm.conf now (no daemon contacted): it must be valid and name this host
  local out
  out=$(timeout 10 scontrol show daemons 2>&1) || true
  if [[ $out != *slurmctld* || $out != *slurmd* ]]; then
    die "$SLURM_ETC/slurm.conf (from $top/etc/slurm/slurm.conf) is not valid for host $host:"$'\n'"$out"
  fi
  return 0
}

# --------------------------------------------------------------------------- node namespaces
# run "$@" and die naming what failed, with its message
net() { local out; out=$("$@" 2>&1) || die "network setup: '$*' failed: $out"; }

setup_network() {
  command -v ip >/dev/null || die "the 'ip' command (iproute2) is missing"
  command -v nsenter >/dev/null || die "the 'nsenter' command (util-linux) is missing"
  if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
    net ip link add "$BRIDGE" type bridge
  fi
  ip -br addr show dev "$BRIDGE" | grep -q "$BRIDGE_ADDR/24" || net ip addr add "$BRIDGE_ADDR/24" dev "$BRIDGE"
  net ip link set "$BRIDGE" up
  local n ns veth
  for n in "${NS_NODES[@]}"; do
    ns=jsn${n#n} veth=jsv${n#n}
    [ -e "/run/netns/$ns" ] || net ip netns add "$ns"
    if ! ip link show "$veth" >/dev/null 2>&1; then
      net ip link add "$veth" type veth peer name eth0 netns "$ns"
    fi
    net ip link set "$veth" master "$BRIDGE" up
    ip -n "$ns" -br addr show dev eth0 | grep -q "$(addr_of "$n")/24" ||
      net ip -n "$ns" addr add "$(addr_of "$n")/24" dev eth0
    net ip -n "$ns" link set lo up
    net ip -n "$ns" link set eth0 up
  done
}

remove_network() {
  local n
  for n in "${NS_NODES[@]}"; do
    ip link del "jsv${n#n}" 2>/dev/null || true
    ip netns del "jsn${n#n}" 2>/dev/null || true
  done
  ip link del "$BRIDGE" 2>/dev/null || true
}

# --------------------------------------------------------------------------- daemons
start_munge() {
  if pid_of "$MUNGED_PID" munged >/dev/null && munge_ok >/dev/null 2>&1; then return 0; fi
  if [ ! -s /etc/munge/munge.key ]; then
    say "creating /etc/munge/munge.key"
    install -d -m 700 -o munge -g munge /etc/munge
    runuser -u munge -- mungekey --create --keyfile=/etc/munge/munge.key
  fi
  install -d -m 755 -o munge -g munge /run/munge
  install -d -m 711 -o munge -g munge /var/lib/munge
  say "starting munged"
  mark_logs "$LOGDIR/munged.log"
  runuser -u munge -- munged --log-file="$LOGDIR/munged.log" --pid-file="$MUNGED_PID" \
    </dev/null >>"$LOGDIR/munged.log" 2>&1 || fail_daemon munged "$LOGDIR/munged.log"
  wait_for "$TIMEOUT" munge_ok || fail_daemon munged "$LOGDIR/munged.log"
  : >"$CHECK_OUT"
}

start_mariadb() {
  if mysql_ok >/dev/null 2>&1; then return 0; fi
  install -d -m 755 -o mysql -g root /run/mysqld
  if [ ! -d /var/lib/mysql/mysql ]; then
    say "initialising the MariaDB data directory"
    mariadb-install-db --user=mysql --datadir=/var/lib/mysql >>"$LOGDIR/mariadb.log" 2>&1 ||
      fail_daemon "MariaDB (mariadb-install-db)" "$LOGDIR/mariadb.log"
  fi
  say "starting MariaDB"
  mark_logs "$LOGDIR/mariadb.log"
  # Debian's 50-mysqld_safe.cnf logs to syslog, which does not exist here: log to a file
  setsid mysqld_safe --skip-syslog --skip-networking --log-error="$LOGDIR/mariadb.log" --innodb-lock-wait-timeout=900 \
    </dev/null >>"$LOGDIR/mariadb.log" 2>&1 &
  local safe_pid=$!
  echo "$safe_pid" >"$RUNDIR/mysqld_safe.pid"
  local end=$((SECONDS + TIMEOUT))
  until mysql_ok >"$CHECK_OUT" 2>&1; do
    # mysqld_safe gives up when mariadbd cannot start: no need to wait for the timeout
    if [ $SECONDS -ge $end ] || ! kill -0 "$safe_pid" 2>/dev/null; then
      fail_daemon MariaDB "$LOGDIR/mariadb.log"
    fi
    sleep 0.3
  done
  : >"$CHECK_OUT"
}

setup_database() {
  mysql --no-defaults --socket=/run/mysqld/mysqld.sock -uroot <<EOF || die "cannot create the slurm database user in MariaDB"
CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY '$dbpass';
ALTER USER 'slurm'@'localhost' IDENTIFIED BY '$dbpass';
CREATE DATABASE IF NOT EXISTS slurm_acct_db;
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';
FLUSH PRIVILEGES;
EOF
}

# start_slurm_daemon NAME PIDFILE CHECK: start NAME (it daemonizes itself) unless it runs
start_slurm_daemon() {
  local name=$1 pidfile=$2 check=$3 restart=${4:-0} pid
  : >"$CHECK_OUT"
  if pid=$(pid_of "$pidfile" "$name" "$name-wlm"); then
    if [ "$restart" -eq 1 ]; then
      say "configuration changed: restarting $name"
      stop_pid "$name" "$pid"
    else
      wait_daemon "$name" "$pidfile" "$check" "$LOGDIR/$name.log"
      return 0
    fi
  fi
  local others
  others=$(pids_named "$name" "$name-wlm")
  if [ -n "$others" ]; then
    die "a $name not started by this script runs already (pids ${others//$'\n'/ }); stop it first"
  fi
  say "starting $name"
  : >"$LOGDIR/$name.start"
  mark_logs "$LOGDIR/$name.log"
  "$name" </dev/null >>"$LOGDIR/$name.start" 2>&1 ||
    fail_daemon "$name" "$LOGDIR/$name.start" "$LOGDIR/$name.log"
  wait_daemon "$name" "$pidfile" "$check" "$LOGDIR/$name.start" "$LOGDIR/$name.log"
  [ -s "$LOGDIR/$name.start" ] || rm -f "$LOGDIR/$name.start"
}

# start_slurmd NODE RESTART: the node's slurmd, in its namespace for n1..n4. nsenter switches
# the network namespace only (`ip netns exec` would remount /sys and hide the cgroups).
start_slurmd() {
  local node=$1 restart=$2 pid pidfile="$RUNDIR/slurmd-$1.pid" log="$LOGDIR/slurmd-$1.log"
  local start_log="$LOGDIR/slurmd-$1.start"
  : >"$CHECK_OUT"
  if pid=$(pid_of "$pidfile" slurmd slurmd-wlm); then
    [ "$restart" -eq 1 ] || return 0
    say "configuration changed: restarting slurmd of $node"
    stop_pid "slurmd ($node)" "$pid"
  fi
  say "starting slurmd for node $node"
  mark_logs "$log"
  : >"$start_log"
  local cmd=(slurmd)
  [ "$node" = "$host" ] || cmd=(nsenter "--net=/run/netns/jsn${node#n}" slurmd -N "$node")
  "${cmd[@]}" </dev/null >>"$start_log" 2>&1 || fail_daemon "slurmd ($node)" "$start_log" "$log"
  wait_daemon slurmd "$pidfile" true "$start_log" "$log"
  [ -s "$start_log" ] || rm -f "$start_log"
}

# --------------------------------------------------------------------------- accounts
sacct_has() { # entity name
  [ -n "$(sacctmgr -n -P list "$1" "$2" format="$1" 2>/dev/null)" ]
}

setup_accounting_cluster() {
  if ! sacctmgr -n -P list cluster format=cluster | grep -qx "$CLUSTER"; then
    say "adding cluster $CLUSTER to the accounting database"
    sacctmgr -i add cluster "$CLUSTER" >/dev/null || die "sacctmgr add cluster $CLUSTER failed"
  fi
}

setup_users() {
  local u
  for u in "${USERS[@]}"; do
    if ! id -u "$u" >/dev/null 2>&1; then
      say "creating user $u"
      useradd --create-home --shell /bin/bash --user-group "$u"
    fi
    install -d -m 755 -o "$u" -g "$(id -gn "$u")" "$(getent passwd "$u" | cut -d: -f6)"
  done
  if ! sacct_has account "$ACCOUNT"; then
    say "adding account $ACCOUNT"
    sacctmgr -i add account "$ACCOUNT" cluster="$CLUSTER" description="jobsentry tests" \
      organization=jobsentry >/dev/null || die "sacctmgr add account $ACCOUNT failed"
  fi
  for u in "${USERS[@]}"; do
    if ! sacctmgr -n -P list assoc user="$u" account="$ACCOUNT" cluster="$CLUSTER" format=user |
        grep -qx "$u"; then
      say "adding user $u to account $ACCOUNT"
      sacctmgr -i add user "$u" account="$ACCOUNT" defaultaccount="$ACCOUNT" cluster="$CLUSTER" \
        >/dev/null || die "sacctmgr add user $u failed"
    fi
  done
}

# --------------------------------------------------------------------------- subcommands
cmd_up() {
  need_root
  local t0=$SECONDS
  bash "$top/scripts/install-deps.sh"
  write_config
  [ ${#NS_NODES[@]} -eq 0 ] || setup_network
  start_munge
  start_mariadb
  setup_database
  start_slurm_daemon slurmdbd "$RUNDIR/slurmdbd.pid" dbd_ok "$conf_changed_dbd"
  setup_accounting_cluster
  setup_users
  start_slurm_daemon slurmctld "$RUNDIR/slurmctld.pid" ctld_ok "$conf_changed_slurm"
  local n
  for n in "${ALL_NODES[@]}"; do start_slurmd "$n" "$conf_changed_slurm"; done
  # a node left DOWN/DRAINED by an earlier run is put back into service
  local end=$((SECONDS + TIMEOUT)) st
  for n in "${ALL_NODES[@]}"; do
    while ! node_idle "$n"; do
      st=$(node_state "$n")
      echo "sinfo: node $n is '${st:-unknown}'" >"$CHECK_OUT"
      case "$st" in
        *drain*|down*|fail*)
          scontrol update nodename="$n" state=resume >/dev/null 2>&1 || true ;;
      esac
      if [ $SECONDS -ge $end ]; then
        echo "cluster: node $n is not idle after ${TIMEOUT}s" >&2
        fail_daemon "slurmd ($n)" "$LOGDIR/slurmd-$n.log" "$LOGDIR/slurmctld.log"
      fi
      sleep 0.5
    done
  done
  say "up in $((SECONDS - t0))s: cluster $CLUSTER, Slurm $(scontrol --version | awk '{print $2}'), nodes ${ALL_NODES[*]}, partitions debug ($host)$([ ${#NS_NODES[@]} -eq 0 ] || echo " and multi (${NS_NODES[*]})"), ports $PORT_BASE-$((PORT_BASE + 2)), logs in $LOGDIR"
  sinfo
}

cmd_down() {
  need_root
  local pid
  # running jobs are cancelled, so that no slurmstepd outlives slurmd
  if pid_of "$RUNDIR/slurmctld.pid" slurmctld slurmctld-wlm >/dev/null && ctld_ok >/dev/null 2>&1; then
    local jobs
    jobs=$(timeout 10 squeue -h -o %A 2>/dev/null || true)
    if [ -n "$jobs" ]; then
      say "cancelling jobs ${jobs//$'\n'/ }"
      # shellcheck disable=SC2086
      scancel $jobs 2>/dev/null || true
      # shellcheck disable=SC2016
      steps_gone() { [ -z "$(squeue -h -o %A 2>/dev/null)" ] && [ -z "$(pids_named slurmstepd slurmstepd-wlm)" ]; }
      wait_for 30 steps_gone || true
    fi
  fi
  # every slurmd is told at once (each takes about 2 s to stop), then waited for
  local n pids=() names=()
  for n in "${ALL_NODES[@]}"; do
    if pid=$(pid_of "$RUNDIR/slurmd-$n.pid" slurmd slurmd-wlm); then
      say "stopping slurmd ($n) (pid $pid)"
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid") names+=("slurmd ($n)")
    fi
  done
  local i
  for i in "${!pids[@]}"; do stop_pid "${names[$i]}" "${pids[$i]}" 30 quiet; done
  # steps of jobs that did not end in time (their slurmstepd were started by our slurmd;
  # a step whose srun was cancelled first keeps trying to reach it for half a minute): with
  # their slurmd gone they serve nobody, so all at once, 3 s, then SIGKILL
  local steps
  steps=$(pids_named slurmstepd slurmstepd-wlm)
  if [ -n "$steps" ]; then
    say "stopping slurmstepd (pids ${steps//$'\n'/ })"
    # shellcheck disable=SC2086
    kill -TERM $steps 2>/dev/null || true
    steps_ended() { local p; for p in $steps; do ! kill -0 "$p" 2>/dev/null || return 1; done; }
    if ! wait_for 3 steps_ended; then
      say "slurmstepd still running after 3s: SIGKILL"
      # shellcheck disable=SC2086
      kill -KILL $steps 2>/dev/null || true
      sleep 0.5
    fi
  fi
  if pid=$(pid_of "$RUNDIR/slurmctld.pid" slurmctld slurmctld-wlm); then stop_pid slurmctld "$pid"; fi
  if pid=$(pid_of "$RUNDIR/slurmdbd.pid" slurmdbd); then stop_pid slurmdbd "$pid"; fi
  local safe_pid=
  safe_pid=$(pid_of "$RUNDIR/mysqld_safe.pid" mysqld_safe) || true
  if pid=$(pid_of "$MYSQLD_PID" mariadbd mysqld); then
    stop_pid MariaDB "$pid" 60
  fi
  if [ -n "$safe_pid" ]; then
    wait_for 10 sh -c "! kill -0 $safe_pid" || stop_pid mysqld_safe "$safe_pid" 5
  fi
  rm -f "$RUNDIR/mysqld_safe.pid"
  if pid=$(pid_of "$MUNGED_PID" munged); then stop_pid munged "$pid"; fi
  [ ${#NS_NODES[@]} -eq 0 ] || remove_network
  say "down"
}

cmd_status() {
  local ok=0 pid d n
  # label:command:pid file
  local daemons=(munged:munged:"$MUNGED_PID" mariadbd:mariadbd:"$MYSQLD_PID"
                 slurmdbd:slurmdbd:"$RUNDIR/slurmdbd.pid" slurmctld:slurmctld:"$RUNDIR/slurmctld.pid")
  for n in "${ALL_NODES[@]}"; do daemons+=("slurmd-$n:slurmd:$RUNDIR/slurmd-$n.pid"); done
  for d in "${daemons[@]}"; do
    local label=${d%%:*} rest=${d#*:}
    local comm=${rest%%:*} file=${rest#*:}
    if pid=$(pid_of "$file" "$comm" "$comm-wlm" mysqld); then
      printf '%-12s running (pid %s)\n' "$label" "$pid"
    else
      printf '%-12s not running\n' "$label"; ok=1
    fi
  done
  if [ $ok -eq 0 ]; then
    timeout 10 sinfo || ok=1
    for n in "${ALL_NODES[@]}"; do
      node_idle "$n" || { echo "node $n is '$(node_state "$n")'"; ok=1; }
    done
  fi
  return $ok
}

cmd_plugin() {
  need_root
  [ $# -ge 1 ] || die "usage: cluster.sh plugin PATH [ARGS...] | plugin --remove"
  install -d -m 755 "$SLURM_ETC/plugstack.conf.d"
  if [ "$1" = "--remove" ]; then
    rm -f "$PLUGIN_FILE"
    say "removed $PLUGIN_FILE"
    return 0
  fi
  case "$1" in /*) ;; *) die "plugin path must be absolute: $1" ;; esac
  [ -f "$1" ] || die "no such plugin: $1"
  local tmp
  tmp=$(mktemp "$SLURM_ETC/plugstack.conf.d/.jobsentry.XXXXXX")
  echo "optional $*" >"$tmp"
  chmod 644 "$tmp"
  mv -f "$tmp" "$PLUGIN_FILE"   # atomic: a job starting now reads the old or the new line
  say "$PLUGIN_FILE: optional $*"
}

case "${1:-}" in
  up)     shift; cmd_up "$@" ;;
  down)   shift; cmd_down "$@" ;;
  status) shift; cmd_status "$@" ;;
  plugin) shift; cmd_plugin "$@" ;;
  *) echo "usage: $0 up|down|status|plugin PATH [ARGS...]|plugin --remove" >&2; exit 2 ;;
esac
