import type { Response } from 'express';
import type { UpsertActionResult } from '../commands/upsert-action/upsert-action.command';
import type { ActionResponse } from './action.response';

/** Upsert by name: 201 with the action when created, 200 when an action of that name was updated. */
export function createdOrUpdatedAction(res: Response, result: UpsertActionResult): ActionResponse {
  res.status(result.created ? 201 : 200);
  return result.action;
}
