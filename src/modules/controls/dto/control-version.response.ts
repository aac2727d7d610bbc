/** What a change did to a control (`recorded`: the state found when versions began to be kept). */
export type ControlChange = 'created' | 'edited' | 'archived' | 'unarchived' | 'recorded';

/**
 * One version of a control as `GET /controls/{org}/{identifier}/versions/{version}` shows it: the control as it
 * was right after one change. Never changes once written (tags and the policies referencing the control are not
 * part of it: they change without a new version); the evidence log's `control_version` entries hash it.
 */
export interface ControlVersionResponse {
  identifier: string;
  version: number;
  name: string;
  description: string;
  links: Record<string, string>;
  archived: boolean;
  change: ControlChange;
  changed_by: string;
  /** Unix seconds */
  changed_at: number;
}
