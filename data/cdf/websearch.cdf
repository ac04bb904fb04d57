# SPDX-License-Identifier: MIT
# Flow-size CDF of the web-search workload: the distribution measured in a production web-search
# cluster by Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010 (§2, query and
# background traffic), in the tabulated form of Alizadeh et al., "pFabric", SIGCOMM 2013, used by
# the evaluations of HPCC (SIGCOMM'19), PowerTCP (NSDI'22) and FastTune.
# Format: one point per line, "<flow size in bytes> <cumulative probability in [0, 1]>"; sizes
# and probabilities non-decreasing, first probability 0, last 1; '#' starts a comment. Sizes
# between points are interpolated linearly.
0 0
10000 0.15
20000 0.20
30000 0.30
50000 0.40
80000 0.53
200000 0.60
1000000 0.70
2000000 0.80
5000000 0.90
10000000 0.97
30000000 1
