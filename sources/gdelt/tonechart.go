package gdelt

import (
	"math"
	"strings"
)

// ToneBin is a bar of a ToneChart answer: the articles whose tone rounds
// to Tone (GDELT's average tone of an article's text, -100 to +100, most
// between -10 and +10), how many there are, and the most relevant of them
// (GDELT lists up to ten per bin).
type ToneBin struct {
	Tone     float64
	Count    int
	Articles []ToneArticle
}

// ToneArticle is an article a ToneChart bin lists.
type ToneArticle struct {
	URL   string
	Title string
}

// ParseToneChart reads a ToneChart JSON answer
// ({"tonechart": [{"bin": -7, "count": 12, "toparts": [{"url", "title"}]}]}):
// its bins, in the answer's order (a bin without a finite tone is skipped,
// an article without a URL too). Its errors are those of Parse: GDELT's
// plain-text answers (ErrRateLimited, *QueryError), an HTML page, a
// truncated or malformed body. `{}` or an answer without "tonechart" is
// no match.
func ParseToneChart(body []byte) ([]ToneBin, error) {
	var doc struct {
		ToneChart []struct {
			Bin     *float64 `json:"bin"`
			Count   int      `json:"count"`
			TopArts []struct {
				URL   string `json:"url"`
				Title string `json:"title"`
			} `json:"toparts"`
		} `json:"tonechart"`
	}
	if err := decodeAnswer(body, "ToneChart", &doc); err != nil {
		return nil, err
	}
	var out []ToneBin
	for _, b := range doc.ToneChart {
		if b.Bin == nil || math.IsNaN(*b.Bin) || math.Abs(*b.Bin) > 100 {
			continue
		}
		bin := ToneBin{Tone: *b.Bin, Count: max(b.Count, 0)}
		for _, a := range b.TopArts {
			if u := strings.TrimSpace(a.URL); u != "" && len(u) <= 2048 {
				bin.Articles = append(bin.Articles, ToneArticle{URL: u, Title: clean(a.Title, 500)})
			}
		}
		out = append(out, bin)
	}
	return out, nil
}

// Tones maps each article URL the bins list to its bin's tone (the first
// bin that lists it).
func Tones(bins []ToneBin) map[string]float64 {
	out := map[string]float64{}
	for _, b := range bins {
		for _, a := range b.Articles {
			if _, seen := out[a.URL]; !seen {
				out[a.URL] = b.Tone
			}
		}
	}
	return out
}
