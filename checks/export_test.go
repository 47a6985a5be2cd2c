package checks

import (
	"testing"

	"github.com/qoslint/qoslint/model"
)

// SetAgreementHook makes every check test case (runCases) also run hook on
// its fabric; the agreement test in package checks_test sets it in init,
// so every case table, present or future, is covered.
func SetAgreementHook(hook func(t *testing.T, f *model.Fabric)) { agreementHook = hook }
