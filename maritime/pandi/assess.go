package pandi

import "strings"

// Assessment is what a vessel's current P&I cover says of its risk.
type Assessment struct {
	GroupCover bool   // entered with an International Group club
	Tier       string // TierLow, TierMedium, TierHigh; "" when no current record is known
	Reason     string
}

// Assess rates a vessel's current cover from the insurers of its current
// records (unmatched names as Unknown): any International Group club is
// low; otherwise the highest tier among the insurers, with its reason; no
// record at all is no assessment (Tier ""), since a missing record is not
// evidence of missing cover.
func Assess(current []Club) Assessment {
	if len(current) == 0 {
		return Assessment{Reason: "no current P&I record known"}
	}
	worst := -1
	rank := map[string]int{TierLow: 0, TierMedium: 1, TierHigh: 2}
	var names []string
	for i, c := range current {
		if c.GroupMember {
			return Assessment{GroupCover: true, Tier: TierLow, Reason: "entered with " + c.Name + ", an International Group club"}
		}
		names = append(names, c.Name)
		if worst < 0 || rank[c.Tier] > rank[current[worst].Tier] {
			worst = i
		}
	}
	w := current[worst]
	return Assessment{Tier: w.Tier, Reason: "no International Group cover (insured by " + strings.Join(names, ", ") + "); " + w.Name + ": " + w.Reason}
}
