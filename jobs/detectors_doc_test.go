package jobs

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"strings"
	"testing"
)

// docs/risk-detectors.md is rendered from the detectors' own doc comments
// and threshold constants, so the published definitions are the code's:
// this test fails when they differ, and `go test ./jobs -run
// DetectorsDoc -update-detectors-doc` rewrites the page.
var updateDetectorsDoc = flag.Bool("update-detectors-doc", false, "rewrite docs/risk-detectors.md from the code")

const detectorsDocPath = "../docs/risk-detectors.md"

// detectorSection is one section of the page: an introduction, the
// constants whose groups are tabled, and the functions whose doc
// comments define the detector.
type detectorSection struct {
	title, intro string
	consts       []string // a constant of each group to table
	funcs        []string
}

var detectorSections = []detectorSection{
	{"AIS gaps and intentional disabling (`ais_gap`)",
		"",
		[]string{"GapOffOn", "GapDenseMinimum"}, []string{"DetectGaps"}},
	{"Loitering (`loitering`: `stationary`, `slow_roll`)",
		"",
		[]string{"LoiterKnots", "LoiterStationary", "ContextTransferArea"}, []string{"DetectLoitering", "TransferAreas"}},
	{"Ship-to-ship transfers (`sts_transfer`: `proximity`, `path_intersection`)",
		"After Global Fishing Watch's encounter events: two vessels within 500 m of each other at under 2 kn for 2 hours or more, away from ports and anchorages.",
		[]string{"STSMaxDistanceM", "STSProximity", "ConfidenceHigh"}, []string{"STSCandidates", "DetectSTS"}},
	{"Spoofing (`spoofing`)", "Impossible jumps in the reported positions.",
		[]string{"SpoofKnots"}, []string{"DetectSpoofing"}},
	{"Identity changes (`identity_change`: `flag`, `name`, `mmsi`)",
		"From the vessel's identity history (`/v1/risk/identity/history`): every static report's MMSI, name, call sign, flag and ship type.",
		[]string{"IdentityFlag", "IdentityFlapWindow"}, []string{"IdentityChanges"}},
	{"Draught mismatches (`draught_mismatch`: `directional`, `magnitude`, `zero_change`)",
		"What a vessel reports of its draught against what its port calls explain (the escalators of METHODS.md's dark-fleet section).",
		[]string{"MismatchSustained", "MismatchDirectional"}, []string{"DetectMismatches"}},
	{"Sanctions matches (`sanctions_match`)",
		"The score, the lists and the matching rules are in [risk.md](risk.md); the event:",
		nil, []string{"SanctionsEvent"}},
	{"How the jobs run", "The `risk_events` job runs every detector; `risk_scores` and `risk_baselines` follow (see [risk.md](risk.md) for the score, hotspots and baselines).",
		[]string{"RiskLookback", "RiskMaxReread"}, []string{"EventDay", "RiskEventsJob", "DeriveRiskEvents", "riskRereads", "unseenBefore", "RiskScoresJob", "RiskBaselinesJob"}},
}

func TestDetectorsDoc(t *testing.T) {
	got := renderDetectorsDoc(t)
	if *updateDetectorsDoc {
		if err := os.WriteFile(detectorsDocPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(detectorsDocPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what the code says: run go test ./jobs -run DetectorsDoc -update-detectors-doc", detectorsDocPath)
	}
}

// renderDetectorsDoc renders the page from the package's source.
func renderDetectorsDoc(t *testing.T) []byte {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, f := range pkgs["jobs"].Files {
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "overwatch/jobs", doc.AllDecls)
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]*doc.Func{}
	for _, f := range p.Funcs {
		funcs[f.Name] = f
	}
	for _, ty := range p.Types {
		for _, f := range ty.Funcs {
			funcs[f.Name] = f
		}
	}
	consts := map[string]*doc.Value{}
	for _, groups := range [][]*doc.Value{p.Consts, p.Vars} {
		for _, v := range groups {
			for _, n := range v.Names {
				consts[n] = v
			}
		}
	}
	for _, ty := range p.Types {
		for _, v := range ty.Consts {
			for _, n := range v.Names {
				consts[n] = v
			}
		}
	}
	var b bytes.Buffer
	b.WriteString(`# Risk detectors: definitions and thresholds

<!-- Generated from the doc comments and constants of jobs/*.go by
     jobs/detectors_doc_test.go; do not edit: change the code and run
     go test ./jobs -run DetectorsDoc -update-detectors-doc -->

Every risk event of the ` + "`/v1/risk`" + ` endpoints comes from one of the detectors
below, run over the position history by the ` + "`risk_events`" + ` job. This page is
their definition, generated from the code's own documentation and constants,
so it is exactly what runs. Severity tiers are ` + "`critical`, `high`, `medium`, `low`" + `.
The score that weighs the events, the sanctions matching, the hotspots and the
baselines are in [risk.md](risk.md); the endpoints in [risk-api.md](risk-api.md).
`)
	for _, s := range detectorSections {
		fmt.Fprintf(&b, "\n## %s\n", s.title)
		if s.intro != "" {
			fmt.Fprintf(&b, "\n%s\n", s.intro)
		}
		for _, name := range s.consts {
			v := consts[name]
			if v == nil {
				t.Fatalf("no constant %s", name)
			}
			b.WriteString("\n" + markdown(p, v.Doc))
			b.WriteString("\n| name | value | meaning |\n|---|---|---|\n")
			for _, spec := range v.Decl.Specs {
				vs := spec.(*ast.ValueSpec)
				value := ""
				if len(vs.Values) > 0 {
					var e bytes.Buffer
					printer.Fprint(&e, fset, vs.Values[0])
					value = "`" + e.String() + "`"
				}
				meaning := strings.Join(strings.Fields(vs.Doc.Text()+" "+vs.Comment.Text()), " ")
				for _, n := range vs.Names {
					fmt.Fprintf(&b, "| `%s` | %s | %s |\n", n.Name, value, strings.ReplaceAll(meaning, "|", "\\|"))
				}
			}
		}
		for _, name := range s.funcs {
			f := funcs[name]
			if f == nil {
				t.Fatalf("no function %s", name)
			}
			fmt.Fprintf(&b, "\n### `%s`\n\n%s", name, markdown(p, f.Doc))
		}
	}
	return b.Bytes()
}

// markdown renders a doc comment as Markdown, headings demoted below the
// page's.
func markdown(p *doc.Package, text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	pr := &comment.Printer{HeadingLevel: 4}
	return string(pr.Markdown(p.Parser().Parse(text)))
}
