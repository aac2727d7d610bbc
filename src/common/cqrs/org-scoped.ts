import { Command, Query } from '@nestjs/cqrs';
import { OrgContext, Principal } from '../auth/principal';

/**
 * Where a message runs: the organization the guards resolved from the `:org` path parameter. Never taken from
 * a body. Every repository call of the handler is scoped by `orgId`.
 */
export interface OrgScope {
  orgId: string;
  /** for links and messages */
  orgName: string;
}

/** An org scope and who acts in it (recorded as `reported_by` / `created_by`). */
export interface ActingScope extends OrgScope {
  actor: string;
}

export function orgScope(org: OrgContext): OrgScope {
  return { orgId: org.id, orgName: org.name };
}

export function actingScope(org: OrgContext, principal: Principal): ActingScope {
  return { orgId: org.id, orgName: org.name, actor: principal.name };
}

/**
 * Base of every org-scoped command: built from one named object (`new BeginTrailCommand({ ...actingScope(org,
 * principal), flowName, data })`), so two values of the same type cannot be swapped by position.
 */
export abstract class OrgCommand<TProps extends ActingScope, TResult> extends Command<TResult> {
  constructor(readonly props: Readonly<TProps>) {
    super();
  }
}

/** Base of every org-scoped query; see OrgCommand. */
export abstract class OrgQuery<TProps extends OrgScope, TResult> extends Query<TResult> {
  constructor(readonly props: Readonly<TProps>) {
    super();
  }
}
