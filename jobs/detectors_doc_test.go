package jobs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch/maritime/portcall"
	"overwatch/maritime/risk"
)

// docs/risk-detectors.md is the published definition of the detectors,
// written by hand. These tests keep it the code's: every threshold it
// cites is in its table of thresholds with the constant's value, every
// "`Name` = value" in its text agrees, every exported constant of a
// detector is in the table, and every `detail` table lists exactly the
// fields the detector emits.

const detectorsDocPath = "../docs/risk-detectors.md"

// riskDir holds the detectors' sources.
const riskDir = "../maritime/risk/"

// detectorConstants are the constants the page may cite, by name. A
// renamed or removed constant breaks the build of this test.
func detectorConstants() map[string]any {
	return map[string]any{
		// event types
		"EventGap": risk.EventGap, "EventLoitering": risk.EventLoitering, "EventSTS": risk.EventSTS,
		"EventSpoofing": risk.EventSpoofing, "EventMismatch": risk.EventMismatch, "EventIdentity": risk.EventIdentity,
		// gaps.go
		"GapOffOn": risk.GapOffOn, "GapMinimum": risk.GapMinimum, "GapOffshoreNM": risk.GapOffshoreNM,
		"GapDenseWindow": risk.GapDenseWindow, "GapDensePer12h": risk.GapDensePer12h, "GapDenseMinimum": risk.GapDenseMinimum,
		"GapDraughtSettle": risk.GapDraughtSettle, "GapDraughtChangeM": risk.GapDraughtChangeM,
		"GapThinnedStatic": risk.GapThinnedStatic, "GapDenseHours": risk.GapDenseHours,
		// reception.go
		"ReceptionWindow": risk.ReceptionWindow, "ReceptionCellDeg": risk.ReceptionCellDeg,
		"ReceptionSilence": risk.ReceptionSilence, "ReceptionPoor": risk.ReceptionPoor, "ReceptionMinHours": risk.ReceptionMinHours,
		"ReceptionMinKnots": risk.ReceptionMinKnots,
		// loitering.go
		"LoiterKnots": risk.LoiterKnots, "LoiterShoreNM": risk.LoiterShoreNM, "LoiterMinimum": risk.LoiterMinimum,
		"LoiterStationaryKnots": risk.LoiterStationaryKnots, "LoiterStationaryKM": risk.LoiterStationaryKM,
		"PortApproachKM": risk.PortApproachKM, "LoiterStationary": risk.LoiterStationary, "LoiterSlowRoll": risk.LoiterSlowRoll,
		"ContextTransferArea": risk.ContextTransferArea, "ContextAnchorage": risk.ContextAnchorage,
		"ContextPortApproach": risk.ContextPortApproach, "ContextOffshore": risk.ContextOffshore,
		// portcalls.go and cargo.go, cited by the detectors
		"MidwayGap": portcall.MidwayGap, "AnchorEntryKM": portcall.AnchorEntryKM, "MinDraftChangeM": portcall.MinDraftChangeM,
		// sts.go
		"STSMaxDistanceM": risk.STSMaxDistanceM, "STSMinDuration": risk.STSMinDuration, "STSMaxKnots": risk.STSMaxKnots,
		"STSAnchorageKM": risk.STSAnchorageKM, "STSMaxGap": risk.STSMaxGap, "STSDenseGap": risk.STSDenseGap,
		"STSDraughtLag": risk.STSDraughtLag, "STSArrival": risk.STSArrival,
		"STSProximity": risk.STSProximity, "STSPathIntersection": risk.STSPathIntersection,
		"ConfidenceHigh": risk.ConfidenceHigh, "ConfidenceMedium": risk.ConfidenceMedium, "ConfidenceLow": risk.ConfidenceLow,
		// spoofing.go
		"SpoofKnots": risk.SpoofKnots, "SpoofMinKM": risk.SpoofMinKM, "SpoofReturnWindow": risk.SpoofReturnWindow,
		"SpoofInlandKM": risk.SpoofInlandKM, "SpoofChannelKM": risk.SpoofChannelKM,
		// cadence.go
		"DraughtReports": risk.DraughtReports,
		// mismatch.go
		"MismatchSustained": risk.MismatchSustained, "MismatchMaxDraftM": risk.MismatchMaxDraftM,
		"MismatchFactor": risk.MismatchFactor, "MismatchJumpShare": risk.MismatchJumpShare,
		"MismatchCallGrace": risk.MismatchCallGrace, "MismatchGap": risk.MismatchGap,
		"MismatchGapSettle": risk.MismatchGapSettle, "MismatchStopLookback": risk.MismatchStopLookback,
		"MismatchDirectional": risk.MismatchDirectional, "MismatchMagnitude": risk.MismatchMagnitude,
		"MismatchZeroChange": risk.MismatchZeroChange,
		// identity.go
		"IdentityFlag": risk.IdentityFlag, "IdentityName": risk.IdentityName, "IdentityMMSI": risk.IdentityMMSI,
		"IdentityFlapWindow": risk.IdentityFlapWindow,
		"IdentityFixWindow":  risk.IdentityFixWindow,
		// hotspots.go
		"HotspotWindow": risk.HotspotWindow, "HotspotActiveWindow": risk.HotspotActiveWindow,
		"DefaultHotspotCellDeg": risk.DefaultHotspotCellDeg, "HotspotMinEvents": risk.HotspotMinEvents,
		"HotspotMinVessels": risk.HotspotMinVessels, "HotspotCriticalPoints": risk.HotspotCriticalPoints,
		"HotspotHighPoints": risk.HotspotHighPoints, "HotspotMediumPoints": risk.HotspotMediumPoints,
		// baselines.go, risk_scores_job.go
		"AreaOpenOcean": risk.AreaOpenOcean, "OpenOceanKM": risk.OpenOceanKM, "CategoryAll": risk.CategoryAll,
		"BaselineWindow": risk.BaselineWindow,
		// risk_job.go and the windows it and risk_scores read
		"TrailingDays": TrailingDays, "RiskLookback": RiskLookback, "RiskMaxReread": RiskMaxReread,
		"RiskCallsBack": RiskCallsBack, "RiskCadenceWindow": RiskCadenceWindow, "ScoreWindow": risk.ScoreWindow, "IdentityWindow": risk.IdentityWindow,
		"PortCallsWindow": risk.PortCallsWindow,
	}
}

// detectorFiles are the detectors' sources: each exported constant they
// declare must be in the page's table.
var detectorFiles = []string{"gaps.go", "cadence.go", "reception.go", "loitering.go", "spoofing.go", "sts.go", "sts_encounter.go", "sts_areas.go",
	"mismatch.go", "identity.go", "hotspots.go", "baselines.go", "risk_job.go", "risk_scores_job.go"}

// detailFiles are, per event type, the sources that build its Detail.
var detailFiles = map[string][]string{
	risk.EventGap:       {"gaps.go", "reception.go"},
	risk.EventLoitering: {"loitering.go"},
	risk.EventSTS:       {"sts_encounter.go"},
	risk.EventSpoofing:  {"spoofing.go"},
	risk.EventMismatch:  {"mismatch.go"},
	risk.EventIdentity:  {"identity.go"},
}

// docValue is a constant's value as the page writes it: durations in
// hours ("6 h"), or in days from a week up ("30 d"); numbers as Go's
// shortest form ("50", "0.5"); strings in backticks.
func docValue(v any) string {
	switch v := v.(type) {
	case time.Duration:
		switch {
		case v >= 7*day && v%day == 0:
			return fmt.Sprintf("%d d", v/day)
		case v%time.Hour == 0:
			return fmt.Sprintf("%d h", v/time.Hour)
		case v%time.Minute == 0:
			return fmt.Sprintf("%d min", v/time.Minute)
		}
		return v.String()
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case int:
		return strconv.Itoa(v)
	case string:
		return "`" + v + "`"
	}
	panic(fmt.Sprintf("docValue: %T", v))
}

// docSection is the text between begin and end.
func docSection(t *testing.T, doc, begin, end string) string {
	t.Helper()
	i := strings.Index(doc, begin)
	if i < 0 {
		t.Fatalf("%s has no %q", detectorsDocPath, begin)
	}
	j := strings.Index(doc[i:], end)
	if j < 0 {
		t.Fatalf("%s has no %q after %q", detectorsDocPath, end, begin)
	}
	return doc[i+len(begin) : i+j]
}

// tableRows are the first two cells of each row of a Markdown table,
// header and separator skipped, the first cell without its backticks.
func tableRows(section string) [][2]string {
	var out [][2]string
	for n, line := range strings.Split(strings.TrimSpace(section), "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if n < 2 || len(cells) < 2 {
			continue
		}
		out = append(out, [2]string{strings.Trim(strings.TrimSpace(cells[0]), "`"), strings.TrimSpace(cells[1])})
	}
	return out
}

func readDetectorsDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(detectorsDocPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// parseRiskFile parses a source of the detectors (maritime/risk) or of the
// risk jobs (this package).
func parseRiskFile(t *testing.T, fset *token.FileSet, name string) *ast.File {
	t.Helper()
	if _, err := os.Stat(riskDir + name); err == nil {
		name = riskDir + name
	}
	f, err := parser.ParseFile(fset, name, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The table of thresholds gives every constant its value in the code.
func TestDetectorsDocThresholds(t *testing.T) {
	t.Parallel()
	consts := detectorConstants()
	rows := tableRows(docSection(t, readDetectorsDoc(t), "<!-- thresholds -->", "<!-- /thresholds -->"))
	seen := map[string]bool{}
	for _, r := range rows {
		name, got := r[0], r[1]
		if seen[name] {
			t.Errorf("%s is in the table twice", name)
		}
		seen[name] = true
		v, ok := consts[name]
		if !ok {
			t.Errorf("the table lists %s, which is not a constant of detectorConstants", name)
			continue
		}
		if want := docValue(v); got != want {
			t.Errorf("the table gives %s as %q; the code has %q", name, got, want)
		}
	}
	for name := range consts {
		if !seen[name] {
			t.Errorf("%s is missing from the table of thresholds", name)
		}
	}
	if len(rows) == 0 {
		t.Error("the table of thresholds is empty")
	}
}

// Every exported constant of a detector is in the table, so a new
// threshold cannot go unpublished.
func TestDetectorsDocCoversConstants(t *testing.T) {
	t.Parallel()
	consts := detectorConstants()
	fset := token.NewFileSet()
	for _, name := range detectorFiles {
		for _, d := range parseRiskFile(t, fset, name).Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				for _, id := range s.(*ast.ValueSpec).Names {
					if _, ok := consts[id.Name]; id.IsExported() && !ok {
						t.Errorf("%s (%s) is not in docs/risk-detectors.md: add it to detectorConstants and the page's table", id.Name, name)
					}
				}
			}
		}
	}
}

// Each "`Name` = value" of the page's text is the constant's value, and
// every constant of the package named in the page is in the table.
func TestDetectorsDocCitations(t *testing.T) {
	t.Parallel()
	doc := readDetectorsDoc(t)
	consts := detectorConstants()
	cited := regexp.MustCompile("`([A-Z][A-Za-z0-9]*)` = ")
	n := 0
	for _, m := range cited.FindAllStringSubmatchIndex(doc, -1) {
		name, rest := doc[m[2]:m[3]], doc[m[1]:]
		v, ok := consts[name]
		if !ok {
			t.Errorf("the page cites %s, which is not in its table", name)
			continue
		}
		want := docValue(v)
		after := strings.TrimPrefix(rest, want)
		if len(after) == len(rest) || after != "" && (after[0] >= '0' && after[0] <= '9' ||
			after[0] == '.' && len(after) > 1 && after[1] >= '0' && after[1] <= '9') {
			line, _, _ := strings.Cut(rest, "\n")
			t.Errorf("the page says %s = %s...; the code has %s", name, line, want)
		}
		n++
	}
	if n == 0 {
		t.Error("the page cites no constant as `Name` = value")
	}

	// Every constant of the package the page names in backticks.
	fset := token.NewFileSet()
	files, err := filepath.Glob(riskDir + "*.go")
	if err != nil {
		t.Fatal(err)
	}
	for i := range files {
		files[i] = filepath.Base(files[i])
	}
	all := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		for _, d := range parseRiskFile(t, fset, name).Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					for _, id := range s.(*ast.ValueSpec).Names {
						all[id.Name] = true
					}
				}
			}
		}
	}
	for _, m := range regexp.MustCompile("`([A-Za-z][A-Za-z0-9]*)`").FindAllStringSubmatch(doc, -1) {
		if _, ok := consts[m[1]]; all[m[1]] && !ok {
			t.Errorf("the page names the constant %s, which is not in its table", m[1])
		}
	}
}

// Each `detail` table of the page lists exactly the keys its detector's
// source puts in the Detail map.
func TestDetectorsDocDetailFields(t *testing.T) {
	t.Parallel()
	doc := readDetectorsDoc(t)
	fset := token.NewFileSet()
	for typ, files := range detailFiles {
		want := map[string]bool{}
		for _, name := range files {
			detailKeys(parseRiskFile(t, fset, name), want)
		}
		got := map[string]bool{}
		for _, r := range tableRows(docSection(t, doc, "<!-- detail "+typ+" -->", "<!-- /detail -->")) {
			got[r[0]] = true
		}
		for k := range want {
			if !got[k] {
				t.Errorf("%s: the detector emits detail %q, which the page does not list", typ, k)
			}
		}
		for k := range got {
			if !want[k] {
				t.Errorf("%s: the page lists detail %q, which the detector does not emit", typ, k)
			}
		}
		if len(want) == 0 {
			t.Errorf("%s: no detail keys found in %v", typ, files)
		}
	}
	if n := strings.Count(doc, "<!-- detail "); n != len(detailFiles) {
		t.Errorf("the page has %d detail tables; the test knows %d", n, len(detailFiles))
	}
}

// detailKeys adds the keys a source file puts in Detail maps: the string
// keys of map[string]any literals, and the string indices assigned to
// (d["k"] = ..., ev.Detail["k"] = ...).
func detailKeys(f *ast.File, into map[string]bool) {
	add := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				into[s] = true
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			mt, ok := n.Type.(*ast.MapType)
			if !ok || !isIdent(mt.Key, "string") || !(isIdent(mt.Value, "any") || isEmptyInterface(mt.Value)) {
				return true
			}
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					add(kv.Key)
				}
			}
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				ix, ok := lhs.(*ast.IndexExpr)
				if !ok {
					continue
				}
				if isIdent(ix.X, "d") || isSelector(ix.X, "Detail") {
					add(ix.Index)
				}
			}
		}
		return true
	})
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func isSelector(e ast.Expr, name string) bool {
	s, ok := e.(*ast.SelectorExpr)
	return ok && s.Sel.Name == name
}

func isEmptyInterface(e ast.Expr) bool {
	it, ok := e.(*ast.InterfaceType)
	return ok && (it.Methods == nil || len(it.Methods.List) == 0)
}

// The page is linked from docs/risk.md and README.md.
func TestDetectorsDocLinked(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"../docs/risk.md", "../README.md"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc([]string{"(risk-detectors.md)", "(docs/risk-detectors.md)"}, func(l string) bool { return strings.Contains(string(b), l) }) {
			t.Errorf("%s does not link docs/risk-detectors.md", path)
		}
	}
}
