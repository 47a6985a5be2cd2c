#!/bin/sh
# qoslint pre-commit hook: when a commit touches the fabric, lint what is
# staged (not the working tree) and refuse the commit on findings at or
# above --fail-on or on unreadable input.
#
# Install:  cp examples/ci/pre-commit-hook.sh .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit
# Settings: QOSLINT_FABRIC   the fabric directory, relative to the repository root (default .)
#           QOSLINT_FAIL_ON  error (default), warning or info
#           QOSLINT          the qoslint command (default qoslint)
# Skip once: git commit --no-verify
set -u

fabric=${QOSLINT_FABRIC:-.}
fail_on=${QOSLINT_FAIL_ON:-error}
qoslint=${QOSLINT:-qoslint}

top=$(git rev-parse --show-toplevel) || exit 1
cd "$top" || exit 1
fabric=${fabric%/}
case $fabric in
"" | .) prefix= ;;
*) prefix=$fabric/ ;;
esac

# Only commits that touch what qoslint reads.
if ! git diff --cached --name-only --diff-filter=ACDMR -- \
	"${prefix}inventory.yaml" "${prefix}inventory.yml" "${prefix}inventory.hcl" \
	"${prefix}qoslint-waivers.yaml" "${prefix}devices" | grep -q .; then
	exit 0
fi

if ! command -v "$qoslint" >/dev/null 2>&1; then
	echo "qoslint pre-commit: '$qoslint' not found; go install github.com/qoslint/qoslint/cmd/qoslint@latest" >&2
	echo "qoslint pre-commit: (or commit with --no-verify to skip the check once)" >&2
	exit 1
fi

# The staged fabric, exactly as it will be committed.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
git ls-files -z -- "${prefix:-.}" | xargs -0 git checkout-index --prefix="$tmp/" -- || exit 1

"$qoslint" lint "$tmp/$fabric" --format text --fail-on "$fail_on"
code=$?
case $code in
0) ;;
1) echo "qoslint pre-commit: findings at or above $fail_on; commit refused (fix them, or waive them in ${prefix}qoslint-waivers.yaml)" >&2 ;;
*) echo "qoslint pre-commit: the fabric could not be read (exit $code); commit refused" >&2 ;;
esac
exit $code
