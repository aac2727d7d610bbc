# Flattens the attestation slots of every trail in the evaluation input (trail-level and per artifact) once, so
# the checks in package policy iterate one set instead of walking the nested compliance status again.
package lib.slots

import rego.v1

trail_id(trail) := concat("/", [trail.flow_name, trail.trail_name])

entries contains {"trail": trail_id(trail), "flow": trail.flow_name, "artifact": "", "name": name, "slot": slot} if {
	some trail in input.trails
	some name, slot in trail.compliance_status.attestations_statuses
}

entries contains {"trail": trail_id(trail), "flow": trail.flow_name, "artifact": artifact, "name": name, "slot": slot} if {
	some trail in input.trails
	some artifact, status in trail.compliance_status.artifacts_statuses
	some name, slot in status.attestations_statuses
}

# "unit-tests" for a trail-level slot, "backend.sbom" for an artifact's.
label(s) := s.name if s.artifact == ""

label(s) := concat(".", [s.artifact, s.name]) if s.artifact != ""
