#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A throwaway Slurm cluster on this host for the fleet test: its own munged (own key and socket),
# slurmctld and NODES fake slurmd nodes, every path under BASE, ports from PORT.
#   cluster.sh start BASE PORT NODES PREFIX   (prints nothing; export SLURM_CONF=BASE/etc/slurm.conf)
#   cluster.sh stop BASE                      (stops everything started from BASE, idempotent)
#   cluster.sh check                          (exit 77 with the reason when it cannot run here)
# Needs root (SlurmUser=root). Exit 77 with the reason on stderr when Slurm or munge is missing.
set -euo pipefail

# 0 when PID is alive and not a zombie (a zombie counts as gone: PID 1 may reap late).
alive() {
	local st
	st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "$st" != Z ]
}

pids_of() { # the pids recorded in BASE's pid files
	cat "$1"/run/*.pid "$1"/munge/munged.pid 2>/dev/null || true
}

# slurmstepd processes (and their children) started by this cluster: SLURM_CONF in environ.
orphans() {
	local p
	for p in $(pgrep -x slurmstepd 2>/dev/null || true); do
		if { tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null | grep -qxF "SLURM_CONF=$1/etc/slurm.conf"; then
			echo "$p"
			pgrep -P "$p" 2>/dev/null || true
		fi
	done
}

stop() {
	local b=$1 p i
	[ -d "$b" ] || return 0
	if [ -f "$b/etc/slurm.conf" ]; then
		SLURM_CONF=$b/etc/slurm.conf timeout 5 scancel --user=root >/dev/null 2>&1 || true
		SLURM_CONF=$b/etc/slurm.conf timeout 5 scontrol shutdown >/dev/null 2>&1 || true
	fi
	for i in $(seq 50); do
		local any=0
		for p in $(pids_of "$b"); do alive "$p" && [ "$p" != "$(cat "$b/munge/munged.pid" 2>/dev/null)" ] && any=1; done
		[ $any = 0 ] && break
		sleep 0.1
	done
	p=$(cat "$b/munge/munged.pid" 2>/dev/null || true)
	[ -n "$p" ] && alive "$p" && kill -TERM "$p" 2>/dev/null && for i in $(seq 20); do alive "$p" || break; sleep 0.05; done
	for p in $(pids_of "$b") $(orphans "$b"); do alive "$p" && kill -KILL "$p" 2>/dev/null || true; done
	rm -f "$b"/run/*.pid "$b/munge/munged.pid"
}

# Exit 77 with the reason when this host cannot run the cluster.
check() {
	local t
	for t in slurmctld slurmd sbatch srun squeue scontrol sinfo munged mungekey munge ss; do
		command -v "$t" >/dev/null || {
			echo "skipped: slurm or munge not installed ($t missing; scripts/deps.sh --ci" \
				"installs slurmctld slurmd slurm-client munge)" >&2
			exit 77
		}
	done
	[ "$(id -u)" = 0 ] || { echo "skipped: the throwaway cluster runs as root (SlurmUser=root)" >&2; exit 77; }
}

start() {
	local b=$1 port=$2 nodes=$3 prefix=$4 h cpus i
	check
	stop "$b"
	rm -rf "$b/state" "$b/spool" "$b/log"
	mkdir -p "$b"/{etc,state,spool,log,run,munge}
	chmod 755 "$b" "$b/munge"
	if ss -Hltn "( sport = :$port or sport = :$((port + 1)) )" | grep -q .; then
		echo "port $port or $((port + 1)) is in use" >&2
		exit 1
	fi
	mungekey -c -f -k "$b/munge/munge.key" && chmod 600 "$b/munge/munge.key"
	munged --socket="$b/munge/munge.sock" --key-file="$b/munge/munge.key" \
		--log-file="$b/munge/munged.log" --pid-file="$b/munge/munged.pid" \
		--seed-file="$b/munge/munged.seed"
	h=$(hostname -s)
	cpus=$(slurmd -C | head -1 | sed -e 's/^NodeName=[^ ]* //' -e 's/ RealMemory=[0-9]*//' \
		-e 's/ UpTime=.*//')
	{
		cat <<CONF
ClusterName=labci
SlurmctldHost=$h(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$b/munge/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$b/state
SlurmdSpoolDir=$b/spool/%n
SlurmctldPidFile=$b/run/slurmctld.pid
SlurmdPidFile=$b/run/slurmd-%n.pid
SlurmctldLogFile=$b/log/slurmctld.log
SlurmdLogFile=$b/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
KillWait=5
CONF
		for i in $(seq "$nodes"); do
			echo "NodeName=$prefix$i NodeHostname=$h NodeAddr=127.0.0.1 Port=$((port + 10 + i)) $cpus State=UNKNOWN"
		done
		echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO"
	} >"$b/etc/slurm.conf"
	export SLURM_CONF=$b/etc/slurm.conf
	slurmctld -f "$SLURM_CONF"
	for i in $(seq 200); do ss -Hltn "sport = :$port" | grep -q . && break; sleep 0.05; done
	for i in $(seq "$nodes"); do slurmd -f "$SLURM_CONF" -N "$prefix$i"; done
	for i in $(seq 200); do
		[ "$(timeout 5 sinfo -h -t idle -o %D 2>/dev/null | awk '{s+=$1} END {print s+0}')" -ge "$nodes" ] && return 0
		sleep 0.1
	done
	echo "the cluster did not come up; logs in $b/log" >&2
	exit 1
}

case "${1:-}" in
check) check ;;
start) start "$2" "$3" "$4" "$5" ;;
stop) stop "$2" ;;
*) echo "usage: cluster.sh start BASE PORT NODES PREFIX | stop BASE | check" >&2; exit 2 ;;
esac
