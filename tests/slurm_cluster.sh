# tests/slurm_cluster.sh: a single-node Slurm cluster for the scale-out test and benchmark,
# sourced (not run). Needs root, slurm-wlm and munge.
#
#   start_slurm_cluster DIR   munged with its own key and socket, slurmctld and slurmd on
#                             127.0.0.1 on free ports, configuration, state and logs in DIR;
#                             exports SLURM_CONF; returns 0 once the node is idle
#   stop_slurm_cluster DIR    stops what start_slurm_cluster started
#   wait_for_slurm_job ID [SECONDS]
#                             waits until job ID has left the queue (a job whose dependency can
#                             never be met is cancelled); returns 1 after SECONDS (default 600)

start_slurm_cluster() {
  local dir=$1 port host
  mkdir -p "$dir/state" "$dir/spool"
  mungekey --create --keyfile="$dir/munge.key" --force 2>/dev/null || head -c 1024 /dev/urandom >"$dir/munge.key"
  chmod 600 "$dir/munge.key"
  munged --key-file="$dir/munge.key" --socket="$dir/munge.sock" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" --force || return 1
  port=$((20000 + RANDOM % 20000))
  host=$(hostname -s)
  cat >"$dir/slurm.conf" <<CONF
ClusterName=libdealer
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -f "$SLURM_CONF" -i && slurmd -f "$SLURM_CONF" || return 1
  for _ in $(seq 1 30); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && return 0
    sleep 1
  done
  return 1
}

stop_slurm_cluster() {
  local dir=$1 daemon
  for daemon in slurmd slurmctld munged; do
    [ -f "$dir/$daemon.pid" ] && kill "$(cat "$dir/$daemon.pid")" 2>/dev/null
  done
  sleep 1
}

wait_for_slurm_job() {
  local id=$1 state
  for _ in $(seq 1 $((${2:-600} * 5))); do
    state=$(squeue -h -j "$id" -o '%T %r' 2>/dev/null)
    [ -z "$state" ] && return 0
    case $state in *DependencyNeverSatisfied*) scancel "$id"; return 0 ;; esac
    sleep 0.2
  done
  return 1
}
