package country

import (
	"strings"
)

// Country is a country: its UN M49 code as UN Comtrade uses it
// (Comtrade's own codes where they differ from M49: 251 France, 579
// Norway, 699 India, 757 Switzerland, 842 USA; 490 "Other Asia, nes", the
// code Comtrade reports Taiwan under), ISO 3166 alpha-3 and alpha-2 codes
// and English name.
type Country struct {
	Code int
	ISO3 string
	ISO2 string
	Name string
}

// table is the one country table of the service: code|ISO3|ISO2|name|
// other names (semicolon-separated: Comtrade's spellings and the
// flag-state names of the sanctions lists among them). It covers the
// trading countries the trade statistics name and every flag of the OFAC
// SDN vessel entries, with the registries ships commonly fly.
const table = `0|W00||World|
8|ALB|AL|Albania|
12|DZA|DZ|Algeria|
24|AGO|AO|Angola|
28|ATG|AG|Antigua and Barbuda|
31|AZE|AZ|Azerbaijan|
32|ARG|AR|Argentina|
36|AUS|AU|Australia|
40|AUT|AT|Austria|
44|BHS|BS|Bahamas|The Bahamas
48|BHR|BH|Bahrain|
50|BGD|BD|Bangladesh|
52|BRB|BB|Barbados|
56|BEL|BE|Belgium|
68|BOL|BO|Bolivia|
76|BRA|BR|Brazil|Brasil
84|BLZ|BZ|Belize|
96|BRN|BN|Brunei|Brunei Darussalam
100|BGR|BG|Bulgaria|
104|MMR|MM|Myanmar|Burma
112|BLR|BY|Belarus|
116|KHM|KH|Cambodia|
120|CMR|CM|Cameroon|
124|CAN|CA|Canada|
144|LKA|LK|Sri Lanka|
152|CHL|CL|Chile|
156|CHN|CN|China|PRC;People's Republic of China
170|COL|CO|Colombia|
174|COM|KM|Comoros|Union of the Comoros
178|COG|CG|Congo|Republic of the Congo
180|COD|CD|DR Congo|Dem. Rep. of the Congo;Democratic Republic of the Congo
184|COK|CK|Cook Islands|
191|HRV|HR|Croatia|
192|CUB|CU|Cuba|
196|CYP|CY|Cyprus|
204|BEN|BJ|Benin|
208|DNK|DK|Denmark|
212|DMA|DM|Dominica|
218|ECU|EC|Ecuador|
226|GNQ|GQ|Equatorial Guinea|
231|ETH|ET|Ethiopia|
232|ERI|ER|Eritrea|
233|EST|EE|Estonia|
242|FJI|FJ|Fiji|
246|FIN|FI|Finland|
251|FRA|FR|France|
262|DJI|DJ|Djibouti|
266|GAB|GA|Gabon|
268|GEO|GE|Georgia|
270|GMB|GM|Gambia|The Gambia
276|DEU|DE|Germany|
288|GHA|GH|Ghana|
296|KIR|KI|Kiribati|
300|GRC|GR|Greece|
324|GIN|GN|Guinea|
328|GUY|GY|Guyana|
332|HTI|HT|Haiti|
340|HND|HN|Honduras|
344|HKG|HK|Hong Kong|China, Hong Kong SAR
360|IDN|ID|Indonesia|
364|IRN|IR|Iran|Iran (Islamic Rep. of);Islamic Republic of Iran
368|IRQ|IQ|Iraq|
372|IRL|IE|Ireland|
376|ISR|IL|Israel|
380|ITA|IT|Italy|
384|CIV|CI|Côte d'Ivoire|Cote d'Ivoire;Ivory Coast
388|JAM|JM|Jamaica|
392|JPN|JP|Japan|
398|KAZ|KZ|Kazakhstan|
400|JOR|JO|Jordan|
404|KEN|KE|Kenya|
408|PRK|KP|North Korea|Dem. People's Rep. of Korea;Democratic Peoples Republic of Korea;Korea North;DPRK
410|KOR|KR|South Korea|Rep. of Korea;Republic of Korea;Korea;Korea South
414|KWT|KW|Kuwait|
422|LBN|LB|Lebanon|
428|LVA|LV|Latvia|
430|LBR|LR|Liberia|
434|LBY|LY|Libya|
440|LTU|LT|Lithuania|
442|LUX|LU|Luxembourg|
450|MDG|MG|Madagascar|
458|MYS|MY|Malaysia|
462|MDV|MV|Maldives|
470|MLT|MT|Malta|
478|MRT|MR|Mauritania|
480|MUS|MU|Mauritius|
484|MEX|MX|Mexico|
490|S19|TW|Other Asia, nes|Taiwan
496|MNG|MN|Mongolia|
498|MDA|MD|Moldova|
499|MNE|ME|Montenegro|
504|MAR|MA|Morocco|
508|MOZ|MZ|Mozambique|
512|OMN|OM|Oman|
528|NLD|NL|Netherlands|Netherlands (Kingdom of the)
531|CUW|CW|Curaçao|
548|VUT|VU|Vanuatu|
554|NZL|NZ|New Zealand|
558|NIC|NI|Nicaragua|
566|NGA|NG|Nigeria|
570|NIU|NU|Niue|
579|NOR|NO|Norway|
584|MHL|MH|Marshall Islands|
585|PLW|PW|Palau|
586|PAK|PK|Pakistan|
591|PAN|PA|Panama|
598|PNG|PG|Papua New Guinea|
600|PRY|PY|Paraguay|
604|PER|PE|Peru|
608|PHL|PH|Philippines|
616|POL|PL|Poland|
620|PRT|PT|Portugal|
624|GNB|GW|Guinea-Bissau|
634|QAT|QA|Qatar|
642|ROU|RO|Romania|
643|RUS|RU|Russia|Russian Federation
659|KNA|KN|Saint Kitts and Nevis|
662|LCA|LC|Saint Lucia|
670|VCT|VC|Saint Vincent and the Grenadines|
674|SMR|SM|San Marino|
678|STP|ST|Sao Tome and Principe|
682|SAU|SA|Saudi Arabia|
686|SEN|SN|Senegal|
690|SYC|SC|Seychelles|
694|SLE|SL|Sierra Leone|
699|IND|IN|India|
702|SGP|SG|Singapore|
704|VNM|VN|Vietnam|Viet Nam
706|SOM|SO|Somalia|
710|ZAF|ZA|South Africa|
724|ESP|ES|Spain|
729|SDN|SD|Sudan|
748|SWZ|SZ|Eswatini|Swaziland
752|SWE|SE|Sweden|
757|CHE|CH|Switzerland|
760|SYR|SY|Syria|Syrian Arab Republic
764|THA|TH|Thailand|
768|TGO|TG|Togo|
776|TON|TO|Tonga|
780|TTO|TT|Trinidad and Tobago|
784|ARE|AE|United Arab Emirates|UAE
788|TUN|TN|Tunisia|
792|TUR|TR|Türkiye|Turkey
795|TKM|TM|Turkmenistan|
798|TUV|TV|Tuvalu|
804|UKR|UA|Ukraine|
818|EGY|EG|Egypt|
826|GBR|GB|United Kingdom|UK;Great Britain
834|TZA|TZ|Tanzania|United Rep. of Tanzania;United Republic of Tanzania
842|USA|US|United States|USA;United States of America;US
858|URY|UY|Uruguay|
860|UZB|UZ|Uzbekistan|
862|VEN|VE|Venezuela|
882|WSM|WS|Samoa|
887|YEM|YE|Yemen|`

var (
	byCode = map[int]Country{}
	byKey  = map[string]Country{}
)

func init() {
	for _, line := range strings.Split(table, "\n") {
		f := strings.Split(line, "|")
		code := 0
		for _, d := range f[0] {
			code = code*10 + int(d-'0')
		}
		c := Country{Code: code, ISO3: f[1], ISO2: f[2], Name: f[3]}
		byCode[code] = c
		keys := []string{c.ISO3, c.ISO2, c.Name}
		if f[4] != "" {
			keys = append(keys, strings.Split(f[4], ";")...)
		}
		for _, k := range keys {
			if k != "" {
				byKey[Key(k)] = c
			}
		}
	}
}

// ByCode finds a country by its (Comtrade) numeric code.
func ByCode(code int) (Country, bool) {
	c, ok := byCode[code]
	return c, ok
}

// Lookup finds a country by its English name or one of its other names
// ("Russian Federation", "St. Kitts & Nevis", "Democratic People's
// Republic of Korea"), or its ISO alpha-3 or alpha-2 code, compared by
// Key.
func Lookup(name string) (Country, bool) {
	k := Key(name)
	if k == "" {
		return Country{}, false
	}
	c, ok := byKey[k]
	return c, ok
}

// latinFold is the unaccented letter of each upper-case Latin-1 letter
// from À (U+00C0) to Ý (U+00DD); '_' where there is none (Æ, Ð, ×).
const latinFold = "AAAAAA_CEEEEIIII_NOOOOO_OUUUUY"

// Key is how names are compared: upper case, accents dropped, "&" read as
// AND, apostrophes and full stops dropped ("People's" reads PEOPLES),
// other punctuation and runs of space as one space, and a leading "ST"
// read as SAINT.
func Key(name string) string {
	name = strings.ToUpper(strings.ReplaceAll(name, "&", " AND "))
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r >= 'À' && r <= 'Ý':
			if f := latinFold[r-'À']; f != '_' {
				b.WriteByte(f)
			} else {
				b.WriteRune(' ')
			}
		case r == '\'' || r == '’' || r == '.':
		default:
			b.WriteRune(' ')
		}
	}
	words := strings.Fields(b.String())
	if len(words) > 0 && words[0] == "ST" {
		words[0] = "SAINT"
	}
	return strings.Join(words, " ")
}
