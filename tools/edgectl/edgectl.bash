# SPDX-License-Identifier: GPL-2.0
# bash completion for edgectl (Documentation/edgectl.rst).  The words come
# from edgectl itself, "edgectl complete WORD...", which prints those that
# may follow from its keyword tables: this file names none of them.
#   . tools/edgectl/edgectl.bash
_edgectl() {
	local cur=${COMP_WORDS[COMP_CWORD]} words=() i
	# The words so far, without the options (-j, -p, -s, -V).
	for ((i = 1; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == -[jpsV] ]] || words+=("${COMP_WORDS[i]}")
	done
	mapfile -t COMPREPLY < <(compgen -W "$("${COMP_WORDS[0]}" complete "${words[@]}" 2>/dev/null)" -- "$cur")
}
complete -F _edgectl edgectl
