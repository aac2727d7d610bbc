/**
 * A 100-file bundle for the compile benchmark: the two benchmark policy modules plus 98 generated rule modules
 * in the same style (partial sets, defaults, functions with else, every, comprehensions, imports of lib.slots),
 * each different so nothing can be shared between them.
 */
import * as fs from 'fs';
import * as path from 'path';

const TYPES = ['junit', 'snyk', 'sonar', 'generic', 'pull_request', 'system:decision', 'custom:sbom-facts', 'custom:provenance-facts'];

export function policyFiles(): Record<string, string> {
  const dir = path.join(__dirname, 'policy');
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.rego')) files[path.relative(__dirname, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return files;
}

function ruleModule(i: number): string {
  const t1 = TYPES[i % TYPES.length];
  const t2 = TYPES[(i * 3 + 1) % TYPES.length];
  return `# Rule family ${i}: findings on ${t1} and ${t2} attestations.
package rules.r${i}

import data.lib.slots
import rego.v1

threshold := ${(i % 5) + 1}

default enabled := true

enabled := data.params.rules.r${i}.enabled

watched := {"${t1}", "${t2}"}

findings contains msg if {
	enabled
	some s in slots.entries
	s.slot.attestation_type in watched
	s.slot.status == "COMPLETE"
	not s.slot.is_compliant
	msg := sprintf("r${i}: %s: %s failed", [s.trail, slots.label(s)])
}

findings contains msg if {
	enabled
	some trail in input.trails
	count(trail.compliance_status.artifacts_statuses) > threshold * ${10 + (i % 7)}
	msg := sprintf("r${i}: %s has too many artifacts", [slots.trail_id(trail)])
}

severity(n) := "high" if {
	n > threshold * 2
} else := "medium" if {
	n > threshold
} else := "low"

by_flow[flow] := severity(n) if {
	some flow in {t.flow_name | some t in input.trails}
	n := count([f | some f in findings; contains(f, flow)])
}

well_named if {
	every s in slots.entries {
		regex.match("^[a-z][a-z0-9-]*$", s.name)
	}
}

names := sort([lower(n) | some n in {"Alpha${i}", "Beta${i}", "Gamma${i}"}])

report := {
	"rule": "r${i}",
	"count": count(findings),
	"by_flow": by_flow,
	"names": names,
	"limits": {"threshold": threshold, "max": max([threshold, ${i}])},
}
`;
}

export function hundredFileBundle(): Record<string, string> {
  const files = policyFiles();
  const need = 100 - Object.keys(files).length;
  for (let i = 0; i < need; i++) files[`rules/r${i}.rego`] = ruleModule(i);
  return files;
}
