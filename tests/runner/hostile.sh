#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# netcc-sim against hostile input, one case per call (CTest runs each as runner.<case>):
#   tests/runner/hostile.sh <netcc-sim> <scratch dir> <case>
# Every rejection must be one line on stderr naming the problem, exit status 2, nothing on
# stdout and no file or directory written; injection attempts must run nothing; a full disk or
# standard output must fail loudly and leave no partial file. Exit 77 = skipped (CTest SKIP).
set -uo pipefail
sim=$(realpath "$1")
scratch=$2
case_name=$3
rm -rf "$scratch"
mkdir -p "$scratch/work"
cd "$scratch/work" || exit 1

die() { echo "FAIL [$case_name]: $*" >&2; exit 1; }

# reject <regex the one stderr line must match> <netcc-sim arguments...>
reject() {
  local want=$1
  shift
  local rc=0
  "$sim" "$@" --out "$scratch/work/out" >"$scratch/stdout" 2>"$scratch/stderr" || rc=$?
  [ "$rc" -eq 2 ] || die "exit status $rc, want 2 (stderr: $(head -c 300 "$scratch/stderr"))"
  [ "$(wc -l <"$scratch/stderr")" -eq 1 ] || die "want one line on stderr, got: $(cat "$scratch/stderr")"
  grep -Eq "^netcc-sim: .*($want)" "$scratch/stderr" || die "stderr '$(cat "$scratch/stderr")' lacks /$want/"
  if LC_ALL=C grep -q '[^[:print:]]' "$scratch/stderr"; then die "raw control or non-ASCII bytes on stderr"; fi
  # Only a failure during the run has printed the table's header by then.
  [ -n "${during_run:-}" ] || [ ! -s "$scratch/stdout" ] || die "wrote to stdout: $(head -c 300 "$scratch/stdout")"
  no_stray
  [ ! -e "$scratch/work/out" ] || die "created the output directory"
  echo "ok [$case_name]: $(cat "$scratch/stderr")"
}

# Nothing outside the output directory, and no command ran.
no_stray() {
  local stray
  stray=$(find "$scratch" -mindepth 1 -not -path "$scratch/work" -not -path "$scratch/work/out*" \
          -not -name stdout -not -name stderr -not -name '*.scn' -not -name '*.cdf' | head -5)
  [ -z "$stray" ] || die "stray files (or a command ran): $stray"
}

short=(--cc fixed-bdp --duration 600)

case "$case_name" in
  # --- shell injection and path traversal through names and paths
  name_dollar) reject 'name = x\$\(touch PWNED\): must be 1-64 characters' --set 'name=x$(touch PWNED)' ;;
  name_backtick) reject 'name = x`touch PWNED`: must be' --set 'name=x`touch PWNED`' ;;
  name_quote) reject "name = a'b: must be" --set "name=a'b" ;;
  name_traversal) reject 'name = ../../escaped: must be' --set 'name=../../escaped' ;;
  name_slash_in_file)
    printf 'name = a/b\nduration_us = 600\n' >bad.scn
    reject 'bad.scn:1: name = a/b: must be' bad.scn ;;
  name_ansi) reject 'name = a\\x1b\[31mb: must be' --set "name=$(printf 'a\033[31mb')" ;;
  binary_argument) reject "unknown scenario 'a\\\\x1b\\\\x01\\\\xff'" "$(printf 'a\033\001\377')" ;;
  out_injection)
    out="$scratch/work/o\$(touch PWNED)'\`touch PWNED\`"
    "$sim" "${short[@]}" --out "$out" >"$scratch/stdout" 2>"$scratch/stderr" || die "exit $? ($(cat "$scratch/stderr"))"
    [ -s "$out/incast_fixed-bdp.csv" ] || die "no CSV inside --out"
    if command -v gnuplot >/dev/null; then
      [ -s "$out/incast_queue.png" ] || die "no plot inside --out: $(cat "$scratch/stdout")"
    fi
    [ -z "$(find "$scratch" -name '*.partial')" ] || die "temporary files left"
    [ -z "$(find "$scratch" -name 'PWNED*')" ] || die "a command ran"
    echo "ok [$case_name]: outputs inside '$out', nothing ran" ;;
  # --- resources
  burst_writes)
    reject 'about [0-9.]+ GiB, over the limit.*scheduled burst writes \(burst_flows = 1, burst_period_us = 0.001' \
      --set burst_flows=1 --set burst_period_us=0.001 --set incast_flows=0 --duration 1e7 ;;
  link_delay)
    reject 'over the limit.*packets the links hold at once \(link_delay_ns = 1000000000' \
      --cc fixed-bdp --set link_delay_ns=1e9 --duration 3e6 ;;
  sample_ns)
    reject 'over the limit.*time series, 1000000001 samples x 5 columns \(sample_ns = 10, duration_us = 1e\+07' \
      --set sample_ns=10 --duration 1e7 ;;
  max_memory_key)
    reject 'over the limit of 0.000977 GiB \(max_memory_mb = 1\)' --set max_memory_mb=1 --set sample_ns=100 ;;
  fattree_too_big)
    # A 524,288-host fat-tree: the estimate names the topology keys before anything is built.
    reject 'over the limit of 0.977 GiB \(max_memory_mb = 1000\)' --set topology=fattree \
      --set fattree_k=64 --set hosts_per_tor=256 --set max_memory_mb=1000 ;;
  fattree_odd_k)
    reject 'fattree_k = 5: must be even' --set topology=fattree --set fattree_k=5 ;;
  conflict_dt_alpha)
    reject 'dt_alpha = 2: conflicts with shared_buffer_bytes = 0' --set dt_alpha=2
    reject 'rtt_noise_normal_ns = 5: conflicts with rtt_noise_uniform_ns = 20' \
      --set rtt_noise_uniform_ns=20 --set rtt_noise_normal_ns=5 ;;
  conflict_fattree_key)
    reject 'hosts_per_tor = 8: conflicts with topology = star' --set hosts_per_tor=8 ;;
  sweep_no_values)
    reject '--sweep seed= : a sweep needs at least one value' --sweep seed= ;;
  sweep_bad_value)
    reject '--sweep: senders = abc: not a number' --sweep senders=20,abc ;;
  sweep_bad_combination)
    # Each value is fine alone; one combination is not: nothing runs, nothing is written.
    reject '--sweep senders=5 incast_flows=10: senders = 5: must be at least' \
      --sweep senders=5,20 --sweep incast_flows=1,10 ;;
  sweep_and_set)
    reject '--sweep: seed is set twice on the command line' --set seed=3 --sweep seed=1,2 ;;
  flows_bad_host)
    reject 'flows = 0>99: host 99 does not exist' --set flows=0\>99 ;;
  conflict_chain_key)
    reject 'chain_gbps = 100,50: conflicts with topology = star' --set chain_gbps=100,50 ;;
  monitor_ports_bad)
    # The incast's star: switch 0, senders 1-11, receiver 12 (13 nodes; the switch has 12 ports).
    reject "monitor_ports = 99:0: '99:0': node 99 does not exist \\(the topology has nodes 0 to 12\\)" \
      --set monitor_ports=99:0
    reject "monitor_ports = 0:12: '0:12': port 12 does not exist \\(node 0 has 12 ports" \
      --set monitor_ports=0:12
    reject "monitor_ports = 1>2: '1>2': node 1 has no link to node 2 \\(node 1 has 1 port: 0>0\\)" --set monitor_ports=1\>2
    reject "monitor_ports = 0-1: '0-1' is not N:P" --set monitor_ports=0-1
    reject "--sweep monitor_ports=5:7: monitor_ports = 5:7: '5:7': port 7 does not exist" \
      --sweep monitor_ports=0:0,5:7 ;;
  ecn_kmin_above_kmax)
    reject 'ecn_kmin_bytes = 9000: must be at most ecn_kmax_bytes \(5000\)' \
      --set ecn_kmin_bytes=9000 --set ecn_kmax_bytes=5000 ;;
  leafspine_64x256)
    # Accepted: routes are kept per switch only, so it fits in well under a GiB.
    "$sim" --set topology=leafspine --set leaves=64 --set spines=64 --set hosts_per_leaf=256 \
      --dry-run --out "$scratch/work/out" >"$scratch/stdout" 2>"$scratch/stderr" || die "exit $? ($(cat "$scratch/stderr"))"
    grep -Eq '^memory per run: about [0-9]{1,3}\.[0-9] MiB' "$scratch/stdout" || die "estimate: $(cat "$scratch/stdout")"
    [ ! -e "$scratch/work/out" ] || die "--dry-run created the output directory"
    echo "ok [$case_name]: $(tail -1 "$scratch/stdout")" ;;
  memory_during_run)
    # Passes the estimate (~13 MiB: links, flows, series), then 1000 one-BDP windows of 100 Gbps
    # hosts queue ~300 MB at a 1 Gbps bottleneck with a 10 GB buffer: the engine's count stops it.
    during_run=1 reject 'fixed-bdp: the run passed its memory limit \(max_memory_mb = 24, 24 MiB\) at [0-9.]+ us' \
      --cc fixed-bdp --set max_memory_mb=24 --set buffer_bytes=1e10 --set senders=1001 \
      --set incast_flows=1000 --set bottleneck_gbps=1 --set incast_size_bytes=1e6 --set incast_at_us=0 ;;
  # --- partial files
  full_disk)
    command -v unshare >/dev/null || exit 77
    unshare -m true 2>/dev/null || { echo "skipped: cannot make a mount namespace"; exit 77; }
    mkdir -p full
    rc=0
    # A 64 KiB file system: the first CSV (~150 KB) cannot fit. Listed from inside the namespace.
    unshare -m sh -c 'd=$1; shift; mount -t tmpfs -o size=64k tmpfs "$d" || exit 77
      "$@"; rc=$?; ls -A "$d" >"$d.list"; exit $rc' sh "$PWD/full" \
      "$sim" --cc powertcp,hpcc --out "$PWD/full" >"$scratch/stdout" 2>"$scratch/stderr" || rc=$?
    [ "$rc" -ne 77 ] || { echo "skipped: cannot mount a tmpfs"; exit 77; }
    [ "$rc" -eq 2 ] || die "exit $rc, want 2 ($(cat "$scratch/stderr"))"
    grep -q "cannot write .*full/incast_powertcp.csv: No space left on device" "$scratch/stderr" \
      || die "stderr: $(cat "$scratch/stderr")"
    [ "$(wc -l <"$scratch/stderr")" -eq 1 ] || die "want one line: $(cat "$scratch/stderr")"
    [ ! -s full.list ] || die "left files on the full disk: $(cat full.list)"
    echo "ok [$case_name]: $(cat "$scratch/stderr")" ;;
  stdout_full)
    rc=0
    "$sim" "${short[@]}" --out "$scratch/work/out" >/dev/full 2>"$scratch/stderr" || rc=$?
    [ "$rc" -eq 2 ] || die "exit $rc with stdout on /dev/full, want 2"
    grep -q "standard output: No space left on device" "$scratch/stderr" || die "$(cat "$scratch/stderr")"
    echo "ok [$case_name]: $(cat "$scratch/stderr")" ;;
  # --- nonsense
  fractional_senders) reject 'senders = 2.7: must be a whole number' --set senders=2.7 ;;
  fractional_pfc) reject 'pfc = 0.5: must be a whole number' --set pfc=0.5 ;;
  fractional_seed) reject 'seed = 1.5: must be a whole number' --seed 1.5 ;;
  duplicate_set) reject 'senders is set twice' --set senders=12 --set senders=13 ;;
  duplicate_seed) reject 'seed is set twice' --set seed=3 --seed 4 ;;
  duplicate_option) reject 'option --out given twice' --out elsewhere ;;
  duplicate_key_in_file)
    printf 'senders = 12\n# again\nsenders = 13\n' >dup.scn
    reject 'dup.scn:3: senders is set twice \(first on line 1\)' dup.scn ;;
  duplicate_controller) reject "--cc hpcc,dctcp,hpcc: hpcc given twice" --cc hpcc,dctcp,hpcc ;;
  empty_controller) reject "--cc hpcc,,dctcp: an empty controller name" --cc hpcc,,dctcp ;;
  two_scenarios) reject "two scenarios given \('incast' and 'fairness'\)" incast fairness ;;
  empty_file)
    printf '# nothing but a comment\n\n' >empty.scn
    reject 'empty.scn: no setting' empty.scn ;;
  incast_after_end) reject 'the last incast flow starts at 5000 us .*duration_us = 3000' --set incast_at_us=5000 ;;
  sample_longer_than_run) reject 'sample_ns = 5000000: must be at most the run' --set sample_ns=5e6 ;;
  cdf_huge)
    printf '0 0\n1e300 1\n' >huge.cdf
    reject 'huge.cdf:2: size = 1e\+300: must be in \[0, 1e\+10\] bytes' --set cdf=huge.cdf --set incast_flows=0 ;;
  cdf_zeros)
    printf '0 0\n0 0.5\n0 1\n' >zeros.cdf
    reject 'zeros.cdf: every size is below 1 byte' --set cdf=zeros.cdf --set incast_flows=0 ;;
  bom_accepted)
    printf '\357\273\277name = bom\nduration_us = 600\n' >bom.scn
    "$sim" bom.scn --cc fixed-bdp --out "$scratch/work/out" >"$scratch/stdout" 2>"$scratch/stderr" \
      || die "a UTF-8 BOM was not skipped: $(cat "$scratch/stderr")"
    [ -s "$scratch/work/out/bom_fixed-bdp.csv" ] || die "no bom_fixed-bdp.csv"
    echo "ok [$case_name]: BOM skipped" ;;
  controller_params)
    # A 1 Mbps NIC is below TIMELY's 10 Mbps delta and floor: reported before anything runs,
    # not silently replaced by defaults.
    reject 'timely: the scenario gives invalid parameters: timely.delta = 10000000 bps: must be in \[0, line_rate\]' \
      --cc fixed-bdp,timely --set host_gbps=0.001 --duration 600
    # A controller-parameter key the controller's validate() refuses: the key and value first.
    reject 'dcqcn_g = 2: dcqcn: the scenario gives invalid parameters: dcqcn.g = 2: must be in \(0, 1\]' \
      --cc fixed-bdp,dcqcn --set dcqcn_g=2 --duration 600
    reject 'dcqcn_f = 2.5: must be a whole number' --cc dcqcn --set dcqcn_f=2.5 --duration 600
    reject '--sweep hpcc_eta=1.5: hpcc_eta = 1.5: hpcc: ' --cc hpcc --sweep hpcc_eta=0.9,1.5 ;;
  nul_in_file)
    printf 'senders = 12\000\n' >nul.scn
    reject 'nul.scn:1: a NUL byte' nul.scn ;;
  *) die "unknown case" ;;
esac
