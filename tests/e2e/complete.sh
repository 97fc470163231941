#!/bin/bash
# What bash offers for a command line, through bash-completion and the
# generated completion, the way an interactive shell asks for it:
#   bash tests/e2e/complete.sh COMPLETION_FILE 'uringlint probe --m'
# prints one candidate per line. A trailing space asks for the next word.
[ -f /usr/share/bash-completion/bash_completion ] || exit 77
. /usr/share/bash-completion/bash_completion
. "$1"
COMP_LINE=$2
COMP_POINT=${#COMP_LINE}
read -ra COMP_WORDS <<<"$COMP_LINE"
[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_uringlint uringlint "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
