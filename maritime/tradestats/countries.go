package tradestats

import (
	"strconv"
	"strings"
)

// Country is a trading country: its UN M49 code as UN Comtrade uses it
// (Comtrade's own codes where they differ from M49: 251 France, 579
// Norway, 699 India, 757 Switzerland, 842 USA), ISO 3166 alpha-3 and
// alpha-2 codes and English name.
type Country struct {
	Code int
	ISO3 string
	ISO2 string
	Name string
}

// countryTable lists the countries the lookup knows: code|ISO3|ISO2|name|
// other names (semicolon-separated, Comtrade's spellings among them). A
// reporter or partner outside it keeps the name and ISO3 its source gives.
const countryTable = `0|W00||World|
12|DZA|DZ|Algeria|
24|AGO|AO|Angola|
31|AZE|AZ|Azerbaijan|
32|ARG|AR|Argentina|
36|AUS|AU|Australia|
40|AUT|AT|Austria|
50|BGD|BD|Bangladesh|
56|BEL|BE|Belgium|
76|BRA|BR|Brazil|Brasil
96|BRN|BN|Brunei|Brunei Darussalam
104|MMR|MM|Myanmar|Burma
112|BLR|BY|Belarus|
120|CMR|CM|Cameroon|
124|CAN|CA|Canada|
144|LKA|LK|Sri Lanka|
152|CHL|CL|Chile|
156|CHN|CN|China|PRC;People's Republic of China
170|COL|CO|Colombia|
178|COG|CG|Congo|Republic of the Congo
180|COD|CD|DR Congo|Dem. Rep. of the Congo;Democratic Republic of the Congo
192|CUB|CU|Cuba|
196|CYP|CY|Cyprus|
208|DNK|DK|Denmark|
218|ECU|EC|Ecuador|
226|GNQ|GQ|Equatorial Guinea|
231|ETH|ET|Ethiopia|
246|FIN|FI|Finland|
251|FRA|FR|France|
266|GAB|GA|Gabon|
268|GEO|GE|Georgia|
276|DEU|DE|Germany|
288|GHA|GH|Ghana|
300|GRC|GR|Greece|
324|GIN|GN|Guinea|
344|HKG|HK|Hong Kong|China, Hong Kong SAR
360|IDN|ID|Indonesia|
364|IRN|IR|Iran|Iran (Islamic Rep. of)
368|IRQ|IQ|Iraq|
372|IRL|IE|Ireland|
376|ISR|IL|Israel|
380|ITA|IT|Italy|
384|CIV|CI|Côte d'Ivoire|Cote d'Ivoire;Ivory Coast
392|JPN|JP|Japan|
398|KAZ|KZ|Kazakhstan|
400|JOR|JO|Jordan|
404|KEN|KE|Kenya|
408|PRK|KP|North Korea|Dem. People's Rep. of Korea
410|KOR|KR|South Korea|Rep. of Korea;Republic of Korea;Korea
414|KWT|KW|Kuwait|
422|LBN|LB|Lebanon|
430|LBR|LR|Liberia|
434|LBY|LY|Libya|
458|MYS|MY|Malaysia|
470|MLT|MT|Malta|
484|MEX|MX|Mexico|
490|S19||Other Asia, nes|Taiwan
496|MNG|MN|Mongolia|
504|MAR|MA|Morocco|
508|MOZ|MZ|Mozambique|
512|OMN|OM|Oman|
528|NLD|NL|Netherlands|Netherlands (Kingdom of the)
554|NZL|NZ|New Zealand|
566|NGA|NG|Nigeria|
579|NOR|NO|Norway|
584|MHL|MH|Marshall Islands|
586|PAK|PK|Pakistan|
591|PAN|PA|Panama|
598|PNG|PG|Papua New Guinea|
600|PRY|PY|Paraguay|
604|PER|PE|Peru|
608|PHL|PH|Philippines|
616|POL|PL|Poland|
620|PRT|PT|Portugal|
634|QAT|QA|Qatar|
642|ROU|RO|Romania|
643|RUS|RU|Russia|Russian Federation
682|SAU|SA|Saudi Arabia|
686|SEN|SN|Senegal|
699|IND|IN|India|
702|SGP|SG|Singapore|
704|VNM|VN|Vietnam|Viet Nam
710|ZAF|ZA|South Africa|
724|ESP|ES|Spain|
752|SWE|SE|Sweden|
757|CHE|CH|Switzerland|
760|SYR|SY|Syria|Syrian Arab Republic
764|THA|TH|Thailand|
780|TTO|TT|Trinidad and Tobago|
784|ARE|AE|United Arab Emirates|UAE
788|TUN|TN|Tunisia|
792|TUR|TR|Türkiye|Turkey
795|TKM|TM|Turkmenistan|
804|UKR|UA|Ukraine|
818|EGY|EG|Egypt|
826|GBR|GB|United Kingdom|UK;Great Britain
834|TZA|TZ|Tanzania|United Rep. of Tanzania
842|USA|US|United States|USA;United States of America;US
858|URY|UY|Uruguay|
860|UZB|UZ|Uzbekistan|
862|VEN|VE|Venezuela|`

var (
	countryByCode = map[int]Country{}
	countryByKey  = map[string]Country{}
)

func init() {
	for _, line := range strings.Split(countryTable, "\n") {
		f := strings.Split(line, "|")
		code, _ := strconv.Atoi(f[0])
		c := Country{Code: code, ISO3: f[1], ISO2: f[2], Name: f[3]}
		countryByCode[code] = c
		keys := []string{c.ISO3, c.ISO2, c.Name}
		if f[4] != "" {
			keys = append(keys, strings.Split(f[4], ";")...)
		}
		for _, k := range keys {
			if k != "" {
				countryByKey[countryKey(k)] = c
			}
		}
	}
}

// countryKey folds case and space for lookups.
func countryKey(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// LookupCountry finds a country by English name (or a listed other name,
// such as Comtrade's "Russian Federation"), ISO alpha-3 or alpha-2 code,
// case-insensitive, or by its numeric code.
func LookupCountry(s string) (Country, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Country{}, false
	}
	if n, err := strconv.Atoi(s); err == nil {
		c, ok := countryByCode[n]
		return c, ok
	}
	c, ok := countryByKey[countryKey(s)]
	return c, ok
}

// CountryOfCode finds a country by its Comtrade code.
func CountryOfCode(code int) (Country, bool) {
	c, ok := countryByCode[code]
	return c, ok
}

// Canonical fills a flow's country names and ISO3 codes from the table
// where the codes are known (the source's spelling stays otherwise).
func Canonical(f Flow) Flow {
	if c, ok := countryByCode[f.ReporterCode]; ok {
		f.ReporterISO3, f.ReporterName = c.ISO3, c.Name
	}
	if c, ok := countryByCode[f.PartnerCode]; ok {
		f.PartnerISO3, f.PartnerName = c.ISO3, c.Name
	}
	return f
}
