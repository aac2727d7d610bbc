/**
 * Evaluation state: what `with` replaces (input, data and the data paths it masks, function replacements) and
 * the memos that are valid only within one such state (rule values, function results, closed terms, indexed
 * comprehensions). A `with` scope or a replacement function runs in a state of its own.
 */
import type { Value } from '../value';
import type { State } from './core';

export function initialState(input: Value | undefined, data: Value): State {
  return { input, data, masks: [], funcs: null, ...freshMemos() };
}

/** A state like `outer` (same input, data, masks and replacements) with empty memos: a `with` scope starts here. */
export function scopedState(outer: State): State {
  return { ...outer, ...freshMemos() };
}

/** The state a replacement function runs in: no replacements, empty memos. */
export function unmockedState(outer: State): State {
  return { ...outer, funcs: null, ...freshMemos() };
}

function freshMemos(): Pick<State, 'memo' | 'fnMemo' | 'calls' | 'closed' | 'comps'> {
  return { memo: new Map(), fnMemo: new Map(), calls: new Map(), closed: new Map(), comps: new Map() };
}
