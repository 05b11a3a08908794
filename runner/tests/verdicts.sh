#!/bin/sh
# Sourced by units_test.sh and slurm_test.sh: what two runs of one mutate
# plan must share.

# verdicts OUT TSV prints OUT's verdict and score lines and TSV's columns 1-5.
verdicts() {
	grep -E '^== (mutant [^ ]+: [a-z]+$|mutation score)' "$1"
	cut -f 1-5 "$2"
}
