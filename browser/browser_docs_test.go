package browser

import (
	"fmt"
	"net/http"
	"overwatch/apptest"
	owhttp "overwatch/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// testDocsPage: /docs renders the service's OpenAPI document with Swagger
// UI and no page errors (the strict content security policy holds): it
// lists every operation of the document, no more, and "Try it out" on a
// keyed GET, with the Pro key entered in the page header, sends it in
// X-API-Key and shows the 200 answer.
func testDocsPage(t *testing.T, env *pageEnv) {
	b := newBrowser(t, env, 1280, 900)
	b.open(t, "/docs")
	b.run(t, 30*time.Second, chromedp.WaitVisible(chromedp.CSS(`.opblock`)))

	// Every operation of the document, as Swagger UI renders them.
	doc, _, err := owhttp.LoadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, path := range doc.Paths.InMatchingOrder() {
		for method := range doc.Paths.Find(path).Operations() {
			want[method+" "+path] = true
		}
	}
	rendered := js[[]string](t, b, `[...document.querySelectorAll('.opblock')].map((o) =>
		o.querySelector('.opblock-summary-method').textContent.trim().toUpperCase() + ' ' +
		o.querySelector('.opblock-summary-path').getAttribute('data-path'))`)
	got := map[string]bool{}
	for _, op := range rendered {
		if got[op] {
			t.Errorf("/docs lists %s twice", op)
		}
		got[op] = true
	}
	var missing, extra []string
	for op := range want {
		if !got[op] {
			missing = append(missing, op)
		}
	}
	for op := range got {
		if !want[op] {
			extra = append(extra, op)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		t.Errorf("/docs lists %d operations, the document has %d: missing %v, not in the document %v", len(got), len(want), missing, extra)
	}

	// The key entered in the header authorizes Swagger UI's ApiKeyHeader
	// (and stays on the page: no /docs?key=...).
	b.setKey(t, env.pro)
	if u := js[string](t, b, `location.pathname + location.search`); u != "/docs" {
		t.Fatalf("entering the key loaded %s", u)
	}
	authorized := js[string](t, b, `(window.overwatchDocs.authSelectors.authorized().getIn(['ApiKeyHeader', 'value']) || '')`)
	if authorized != env.pro {
		t.Fatalf("the header's key did not authorize ApiKeyHeader: %q", authorized)
	}
	// "Try it out" on GET /risk/stats (401 without a key).
	if r := env.s.Do(t, apptest.Request{Method: http.MethodGet, Path: "/v1/risk/stats", IP: apptest.FreshIP()}); r.StatusCode != 401 {
		t.Fatalf("/v1/risk/stats without a key: %d", r.StatusCode)
	}
	op := `#operations-risk-getRiskStats`
	b.run(t, 30*time.Second,
		chromedp.ScrollIntoView(chromedp.CSS(op)),
		chromedp.Click(chromedp.CSS(op+` .opblock-summary-control`)),
		chromedp.WaitVisible(chromedp.CSS(op+` .try-out__btn`)),
		chromedp.Click(chromedp.CSS(op+` .try-out__btn`)),
		chromedp.WaitVisible(chromedp.CSS(op+` .execute`)),
		chromedp.Click(chromedp.CSS(op+` .execute`)),
		chromedp.WaitVisible(chromedp.CSS(op+` .live-responses-table tbody .response-col_status`)),
	)
	status := strings.TrimSpace(evalIn(t, b, 10*time.Second, chromedp.Text(chromedp.CSS(op+` .live-responses-table tbody .response-col_status`))))
	body := evalIn(t, b, 10*time.Second, chromedp.Text(chromedp.CSS(op+` .live-responses-table tbody .response-col_description .microlight`)))
	curl := evalIn(t, b, 10*time.Second, chromedp.Text(chromedp.CSS(op+` .curl-command`)))
	if !strings.HasPrefix(status, "200") || !strings.Contains(body, `"critical_vessels"`) {
		t.Errorf("try it out on GET /risk/stats: status %q, body shown %.300q", status, body)
	}
	if !strings.Contains(curl, fmt.Sprintf("X-API-Key: %s", env.pro)) {
		t.Errorf("the tried call's request does not carry the key in X-API-Key: %s", curl)
	}
	// The screenshot shows the tried operation with its answer.
	js[bool](t, b, `(document.querySelector('`+op+`').scrollIntoView({block: 'start'}), true)`)
	publishScreenshot(t, b.screenshot(t, "docs"), "docs.png")
	b.noErrors(t)
}
