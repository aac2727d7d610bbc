# Benchmark compliance policy over input.trails: required attestations, freshness, failures, missing slots,
# unexpected attestations, per-flow and overall summaries. Thresholds come from data.params when given.
package policy

import data.lib.slots
import rego.v1

default max_age_days := 30

max_age_days := data.params.max_age_days

default allowed_unexpected := 0

allowed_unexpected := data.params.allowed_unexpected

default required := ["pull-request", "unit-tests"]

required := data.params.required

now := time.now_ns()

day_ns := ((24 * 60) * 60) * 1000000000

absent contains sprintf("%s: required attestation %q is absent", [slots.trail_id(trail), name]) if {
	some trail in input.trails
	some name in required
	not trail.compliance_status.attestations_statuses[name]
}

stale contains sprintf("%s: %s is older than %d days", [s.trail, slots.label(s), max_age_days]) if {
	some s in slots.entries
	s.slot.status == "COMPLETE"
	now - (s.slot.created_at * 1000000000) > max_age_days * day_ns
}

failing contains sprintf("%s: %s failed", [s.trail, slots.label(s)]) if {
	some s in slots.entries
	s.slot.status == "COMPLETE"
	s.slot.is_compliant == false
}

missing contains sprintf("%s: %s is missing", [s.trail, slots.label(s)]) if {
	some s in slots.entries
	s.slot.status == "MISSING"
}

unexpected_count[id] := n if {
	some trail in input.trails
	id := slots.trail_id(trail)
	cs := trail.compliance_status
	top := count([name | some name, slot in cs.attestations_statuses; slot.unexpected == true])
	nested := count([name |
		some status in cs.artifacts_statuses
		some name, slot in status.attestations_statuses
		slot.unexpected == true
	])
	n := top + nested
}

too_many_unexpected contains sprintf("%s has %d unexpected attestations", [id, n]) if {
	some id, n in unexpected_count
	n > allowed_unexpected
}

non_compliant_trails contains slots.trail_id(trail) if {
	some trail in input.trails
	not trail.compliance_status.is_compliant
}

flows[flow] := {"trails": total, "non_compliant": bad} if {
	some trail in input.trails
	flow := trail.flow_name
	total := count([t | some t in input.trails; t.flow_name == flow])
	bad := count([t | some t in input.trails; t.flow_name == flow; not t.compliance_status.is_compliant])
}

types_seen := {t | some s in slots.entries; t := s.slot.attestation_type; t != null}

violations := (((absent | stale) | failing) | missing) | too_many_unexpected

default allow := false

allow if count(violations) == 0

summary := {
	"trails": count(input.trails),
	"slots": count(slots.entries),
	"absent": count(absent),
	"failing": count(failing),
	"missing": count(missing),
	"stale": count(stale),
	"non_compliant_trails": count(non_compliant_trails),
	"types": types_seen,
}
