package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The pages (/docs, /map, /dashboard) in a real browser: Debian's headless
// Chromium driven by chromedp against the real server with the simulated
// fleet of `overwatch run`. Each page's checks are in browser_<page>_test.go;
// screenshots go to OVERWATCH_SCREENSHOTS (bin/screenshots by default), the
// ones README shows are copies in docs/screenshots, refreshed with
// OVERWATCH_UPDATE_SCREENSHOTS=1.
func TestBrowser(t *testing.T) {
	chrome := chromiumPath(t)
	chURL := chtest.URL(t, "e2e_browser")
	env := map[string]string{
		"CLICKHOUSE_URL": chURL, "OVERWATCH_DATA_DIR": t.TempDir(), "OVERWATCH_SPOOL_DIR": t.TempDir(),
		"OVERWATCH_DEMO_DAYS": "3", "OVERWATCH_DEMO_VESSELS": "80",
		"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "100000", "OVERWATCH_PUBLIC_LIMIT_PER_DAY": "1000000",
		"OVERWATCH_KEYED_LIMIT_PER_MINUTE": "100000",
	}
	out := &apptest.SyncWriter{}
	s := apptest.StartDemo(t, env, out)
	apptest.Eventually(t, 180*time.Second, "the demo's backfill", func() bool { return strings.Contains(out.String(), "Public latest position") })
	key, _ := s.NewKey(t, "browser@example.com", overwatch.PlanPro)
	free, _ := s.NewKey(t, "browser-free@example.com", overwatch.PlanFree)
	env2 := &pageEnv{s: s, chrome: chrome, pro: key, free: free}
	t.Run("docs", func(t *testing.T) { testDocsPage(t, env2) })
	t.Run("map", func(t *testing.T) { testMapPage(t, env2) })
	t.Run("mapfeatures", func(t *testing.T) { testMapFeatures(t, env2) })
	t.Run("dashboard", func(t *testing.T) { testDashboardPage(t, env2) })
	t.Run("arrivals", func(t *testing.T) { testDashboardArrivals(t, env2) })
}

// pageEnv is what each page's browser test gets: the server, Chromium and
// a Pro and a Free key.
type pageEnv struct {
	s         *apptest.TestServer
	chrome    string
	pro, free string
}

// chromiumPath finds Chromium (OVERWATCH_CHROMIUM, or chromium on PATH):
// without it the browser tests skip, saying how to install it, except
// under CI=true, where they fail.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("OVERWATCH_CHROMIUM"); p != "" {
		return p
	}
	p, err := exec.LookPath("chromium")
	if err == nil {
		return p
	}
	msg := "the browser tests need Chromium: `make tools` installs Debian's chromium (or set OVERWATCH_CHROMIUM)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// browser is one headless Chromium tab with a fresh profile, collecting
// what the page reports as errors: console.error calls, uncaught
// exceptions and the browser's own error log (failed loads, content
// security policy violations).
type browser struct {
	ctx  context.Context
	base string
	mu   sync.Mutex
	errs []string
}

// newBrowser starts Chromium for the test (closed at its end) with the
// window size given, calling the server at env.s.base.
func newBrowser(t *testing.T, env *pageEnv, width, height int) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(env.chrome),
		chromedp.NoSandbox,
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	b := &browser{ctx: ctx, base: env.s.Base}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.addError(fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line+1))
			}
		}
	}()
	return b
}

func (b *browser) addError(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errs = append(b.errs, s)
}

// errors returns the errors the pages reported so far.
func (b *browser) errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errs...)
}

// run runs chromedp actions in the tab, failing the test on an error or
// after timeout.
func (b *browser) run(t *testing.T, timeout time.Duration, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("browser: %v (page errors: %v)", err, b.errors())
	}
}

// open loads the server's page at path and waits for its body.
func (b *browser) open(t *testing.T, path string) {
	t.Helper()
	b.run(t, 30*time.Second, chromedp.Navigate(b.base+path), chromedp.WaitReady(chromedp.CSS("body")))
}

// setKey enters key in the page header's key form, as a user does.
func (b *browser) setKey(t *testing.T, key string) {
	t.Helper()
	b.run(t, 10*time.Second,
		chromedp.WaitVisible(chromedp.CSS(`.ow-key input`)),
		chromedp.SetValue(chromedp.CSS(`.ow-key input`), key),
		chromedp.Click(chromedp.CSS(`.ow-key button[type=submit]`)),
	)
}

// noErrors fails the test when the pages reported errors.
func (b *browser) noErrors(t *testing.T) {
	t.Helper()
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("the page reported %d errors:\n%s", len(errs), strings.Join(errs, "\n"))
	}
}

// screenshot writes the whole tab as <name>.png into the screenshot
// folder and returns its path.
func (b *browser) screenshot(t *testing.T, name string) string {
	t.Helper()
	png := evalIn(t, b, 20*time.Second, chromedp.CaptureScreenshot())
	dir := os.Getenv("OVERWATCH_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join("..", "bin", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
	return p
}

// evalIn runs one action that returns a value in the tab, failing the
// test on an error or after timeout.
func evalIn[T any](t *testing.T, b *browser, timeout time.Duration, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("browser: %v (page errors: %v)", err, b.errors())
	}
	return v
}

// js evaluates a JavaScript expression in the page (awaiting a promise)
// and decodes its value.
func js[T any](t *testing.T, b *browser, expr string) T {
	t.Helper()
	return evalIn(t, b, 30*time.Second, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// publishScreenshot copies a screenshot to docs/screenshots/name, the copy
// README shows, when OVERWATCH_UPDATE_SCREENSHOTS is set (a test run
// leaves the repository's files alone otherwise).
func publishScreenshot(t *testing.T, shot, name string) {
	t.Helper()
	if os.Getenv("OVERWATCH_UPDATE_SCREENSHOTS") == "" {
		return
	}
	png, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "docs", "screenshots", name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fetchStub is an answer the page's fetch gets instead of the server's,
// for the requests whose method is Method and whose URL path starts with
// Prefix (the first stub that fits answers).
type fetchStub struct {
	Method string `json:"method"`
	Prefix string `json:"prefix"`
	Status int    `json:"status"`
	Body   any    `json:"body"`
}

// stubFetch makes the page's fetch answer the requests stubs fit with
// them (the others go to the server), replacing the stubs set before, and
// records every request the page sends from now on in window.__sent
// ({method, path, body}). For an endpoint another branch builds: the page's
// handling of the contract's answers is checked before the server has it.
func (b *browser) stubFetch(t *testing.T, stubs ...fetchStub) {
	t.Helper()
	if stubs == nil {
		stubs = []fetchStub{}
	}
	raw, err := json.Marshal(stubs)
	if err != nil {
		t.Fatal(err)
	}
	js[bool](t, b, `(() => {
		window.__stubs = `+string(raw)+`;
		window.__sent = [];
		if (!window.__realFetch) {
			window.__realFetch = window.fetch;
			window.fetch = async (url, init = {}) => {
				const u = new URL(url, location.href);
				const method = (init.method || 'GET').toUpperCase();
				window.__sent.push({ method, path: u.pathname + u.search, body: init.body ? JSON.parse(init.body) : null });
				const s = window.__stubs.find((s) => s.method === method && u.pathname.startsWith(s.prefix));
				if (!s) return window.__realFetch(url, init);
				return new Response(JSON.stringify(s.body), { status: s.status, headers: { 'Content-Type': 'application/json' } });
			};
		}
		return true;
	})()`)
}
