package sanctions

import "strings"

// flagNames maps the flag-state names sanctions lists use (OFAC's
// spelling first, then common variants) to ISO 3166-1 alpha-2 codes. It
// covers every flag of the OFAC SDN vessel entries and the registries
// ships commonly fly; names are matched upper-case with punctuation
// dropped, "&" read as AND and "ST" as SAINT.
var flagNames = map[string]string{
	"ALBANIA": "AL", "ALGERIA": "DZ", "ANGOLA": "AO", "ANTIGUA AND BARBUDA": "AG", "ARGENTINA": "AR",
	"AZERBAIJAN": "AZ", "BAHAMAS": "BS", "THE BAHAMAS": "BS", "BAHRAIN": "BH", "BANGLADESH": "BD",
	"BARBADOS": "BB", "BELGIUM": "BE", "BELIZE": "BZ", "BENIN": "BJ", "BOLIVIA": "BO", "BRAZIL": "BR",
	"BULGARIA": "BG", "BURMA": "MM", "MYANMAR": "MM", "CAMBODIA": "KH", "CAMEROON": "CM", "CANADA": "CA",
	"CHINA": "CN", "COMOROS": "KM", "UNION OF THE COMOROS": "KM", "COOK ISLANDS": "CK", "CROATIA": "HR",
	"CUBA": "CU", "CURACAO": "CW", "CYPRUS": "CY", "DENMARK": "DK", "DJIBOUTI": "DJ", "DOMINICA": "DM",
	"DEMOCRATIC PEOPLES REPUBLIC OF KOREA": "KP", "NORTH KOREA": "KP", "KOREA NORTH": "KP", "DPRK": "KP",
	"ECUADOR": "EC", "EGYPT": "EG", "EQUATORIAL GUINEA": "GQ", "ERITREA": "ER", "ESTONIA": "EE",
	"ESWATINI": "SZ", "SWAZILAND": "SZ", "FIJI": "FJ", "FINLAND": "FI", "FRANCE": "FR", "GABON": "GA",
	"GAMBIA": "GM", "THE GAMBIA": "GM", "GEORGIA": "GE", "GERMANY": "DE", "GHANA": "GH", "GREECE": "GR",
	"GUINEA": "GN", "GUINEA BISSAU": "GW", "GUYANA": "GY", "HAITI": "HT", "HONDURAS": "HN", "HONG KONG": "HK",
	"INDIA": "IN", "INDONESIA": "ID", "IRAN": "IR", "ISLAMIC REPUBLIC OF IRAN": "IR", "IRAQ": "IQ",
	"ITALY": "IT", "JAMAICA": "JM", "JAPAN": "JP", "JORDAN": "JO", "KAZAKHSTAN": "KZ", "KENYA": "KE",
	"KIRIBATI": "KI", "KOREA SOUTH": "KR", "SOUTH KOREA": "KR", "REPUBLIC OF KOREA": "KR", "KUWAIT": "KW",
	"LATVIA": "LV", "LEBANON": "LB", "LIBERIA": "LR", "LIBYA": "LY", "LITHUANIA": "LT", "LUXEMBOURG": "LU",
	"MADAGASCAR": "MG", "MALAYSIA": "MY", "MALDIVES": "MV", "MALTA": "MT", "MARSHALL ISLANDS": "MH",
	"MAURITANIA": "MR", "MAURITIUS": "MU", "MEXICO": "MX", "MOLDOVA": "MD", "MONGOLIA": "MN",
	"MONTENEGRO": "ME", "MOROCCO": "MA", "MOZAMBIQUE": "MZ", "NETHERLANDS": "NL", "NEW ZEALAND": "NZ",
	"NICARAGUA": "NI", "NIGERIA": "NG", "NIUE": "NU", "NORWAY": "NO", "OMAN": "OM", "PAKISTAN": "PK",
	"PALAU": "PW", "PANAMA": "PA", "PERU": "PE", "PHILIPPINES": "PH", "POLAND": "PL", "PORTUGAL": "PT",
	"QATAR": "QA", "ROMANIA": "RO", "RUSSIA": "RU", "RUSSIAN FEDERATION": "RU", "SAINT KITTS AND NEVIS": "KN",
	"SAINT LUCIA": "LC", "SAINT VINCENT AND THE GRENADINES": "VC", "SAMOA": "WS", "SAN MARINO": "SM",
	"SAO TOME AND PRINCIPE": "ST", "SAUDI ARABIA": "SA", "SENEGAL": "SN", "SEYCHELLES": "SC",
	"SIERRA LEONE": "SL", "SINGAPORE": "SG", "SOMALIA": "SO", "SOUTH AFRICA": "ZA", "SPAIN": "ES",
	"SRI LANKA": "LK", "SUDAN": "SD", "SWEDEN": "SE", "SYRIA": "SY", "SYRIAN ARAB REPUBLIC": "SY",
	"TAIWAN": "TW", "TANZANIA": "TZ", "UNITED REPUBLIC OF TANZANIA": "TZ", "THAILAND": "TH", "TOGO": "TG",
	"TONGA": "TO", "TRINIDAD AND TOBAGO": "TT", "TUNISIA": "TN", "TURKEY": "TR", "TURKIYE": "TR",
	"TURKMENISTAN": "TM", "TUVALU": "TV", "UKRAINE": "UA", "UNITED ARAB EMIRATES": "AE", "UAE": "AE",
	"UNITED KINGDOM": "GB", "UNITED STATES": "US", "VANUATU": "VU", "VENEZUELA": "VE", "VIETNAM": "VN",
	"VIET NAM": "VN", "YEMEN": "YE",
	// The list's way of saying the vessel flies no known flag.
	"NONE IDENTIFIED": "", "UNKNOWN": "", "NONE": "",
}

// FlagCode returns the ISO 3166-1 alpha-2 code of a flag state named the
// way sanctions lists name it ("Democratic People's Republic of Korea",
// "St. Kitts & Nevis"); a two-letter code is returned upper-cased; a name
// it does not know is returned as given (trimmed), and "None Identified"
// as "".
func FlagCode(name string) string {
	name = strings.Join(strings.Fields(name), " ")
	if name == "" {
		return ""
	}
	key := normalFlag(name)
	if code, ok := flagNames[key]; ok {
		return code
	}
	if len(key) == 2 {
		if flagCodes[key] {
			return key
		}
	}
	return name
}

// flagCodes is the set of codes of flagNames.
var flagCodes = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range flagNames {
		if c != "" {
			m[c] = true
		}
	}
	return m
}()

// latinFold is the unaccented letter of each upper-case Latin-1 letter
// from À (U+00C0) to Ý (U+00DD); '_' where there is none (Æ, Ð, ×).
const latinFold = "AAAAAA_CEEEEIIII_NOOOOO_OUUUUY"

func normalFlag(name string) string {
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
			// dropped: "People's" reads PEOPLES, "St." reads ST
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
