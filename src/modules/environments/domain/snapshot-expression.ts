import { MomentExpressionError, MomentSelector, parseMomentExpression } from '../../../common/moments/moment-expression';

export class SnapshotExpressionError extends Error {}

/** A snapshot expression: the trail-moment grammar, snapshot for moment (`N`, `#N`, `-N`, `~N`, `latest`, `@{...}`). */
export function parseSnapshotExpression(raw: string): MomentSelector {
  try {
    return parseMomentExpression(raw);
  } catch (error) {
    if (error instanceof MomentExpressionError) throw new SnapshotExpressionError(error.message.replace(/moment/g, 'snapshot'));
    throw error;
  }
}

/**
 * A logical environment has no numbered snapshots: its view is addressed by time (`latest`, `-1`, `~0`,
 * `@{...}`), each member resolving the instant in its own series.
 */
export function logicalSelector(selector: MomentSelector): MomentSelector {
  if (selector.kind === 'number' || (selector.kind === 'back' && selector.steps !== 0)) {
    throw new SnapshotExpressionError('a logical environment has no numbered snapshots: use latest, -1, ~0 or @{...}');
  }
  return selector;
}

/**
 * A "snappish" of `kosli diff snapshots` (`GET /env-diff/{org}`): an environment name, alone (its latest snapshot)
 * or followed by an expression starting with `#`, `~` or `@` (`prod#3`, `prod~1`, `prod@{2.days.ago}`), split
 * where the CLI splits it: at the first of those characters, only one kind of which may appear.
 */
export function parseSnappish(raw: string): { environment: string; selector: MomentSelector } {
  const marks = ['#', '~', '@'].filter((c) => raw.includes(c));
  if (marks.length > 1) throw new SnapshotExpressionError("only one of '@', '~' or '#' may appear");
  if (!marks.length) return { environment: raw, selector: { kind: 'back', steps: 0 } };
  const at = raw.indexOf(marks[0]);
  if (at === 0) throw new SnapshotExpressionError('the environment name is missing');
  return { environment: raw.slice(0, at), selector: parseSnapshotExpression(raw.slice(at)) };
}

/**
 * `interval` of the snapshot list: two expressions joined by `..` (`1..NOW`, `~5..NOW`, `3..10`); `NOW` (any
 * case) is the latest. Resolving each end is the reader's.
 */
export function parseInterval(raw: string): { from: MomentSelector; to: MomentSelector } {
  const parts = raw.split('..');
  if (parts.length !== 2) throw new SnapshotExpressionError("must be two snapshot expressions joined by '..', like 1..NOW");
  const side = (text: string): MomentSelector => (text.trim().toUpperCase() === 'NOW' ? { kind: 'back', steps: 0 } : parseSnapshotExpression(text));
  return { from: side(parts[0]), to: side(parts[1]) };
}
