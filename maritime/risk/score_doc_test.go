package risk

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var updateRiskDoc = flag.Bool("update-risk-doc", false, "rewrite the factor table of docs/risk.md from RiskFactors")

// riskFactorTable renders RiskFactors as the Markdown table of docs/risk.md.
func riskFactorTable() string {
	var b strings.Builder
	b.WriteString("| factor | weight | full at | unit | window | why it is evidence | source |\n|---|---|---|---|---|---|---|\n")
	for _, f := range Factors {
		fmt.Fprintf(&b, "| `%s` | %g | %g | %s | %s | %s | %s |\n", f.Name, f.Weight, f.Full, f.Unit, f.Window, f.Reason, f.Source)
	}
	return b.String()
}

// The factor table of docs/risk.md is RiskFactors.
func TestRiskDoc(t *testing.T) {
	t.Parallel()
	const path, begin, end = "../../docs/risk.md", "<!-- factors -->\n", "<!-- /factors -->"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", path, begin, end)
	}
	want := riskFactorTable()
	if got := s[i+len(begin) : j]; got != want {
		if *updateRiskDoc {
			if err := os.WriteFile(path, []byte(s[:i+len(begin)]+want+s[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("the factor table of %s differs from RiskFactors; run go test ./jobs -run RiskDoc -update-risk-doc", path)
	}
}
