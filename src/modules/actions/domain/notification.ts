import { createHmac } from 'node:crypto';

/** An event as a delivery carries it (a copy is stored with the delivery, so retries send the same content). */
export interface DeliveryEvent {
  /** the outbox event's id (for a derived event, the id of the event it was derived from, suffixed) */
  id: string;
  type: string;
  org: string;
  subject: Record<string, unknown>;
  data: Record<string, unknown>;
  /** Unix seconds */
  occurred_at: number;
  /**
   * Environment actions only: the names of the action's environments the event matched, sorted. The physical
   * environment's own name when the action names it; a logical environment's when the event's environment was
   * its member. Absent on deliveries stored before it existed.
   */
  matched_environments?: string[];
}

export interface DeliveryContext {
  /** the delivery id: the same on every attempt, so a receiver can drop duplicates */
  deliveryId: string;
  trigger: string;
  action: { number: number; name: string; type: string };
  event: DeliveryEvent;
  /** Unix seconds of this attempt */
  sentAt: number;
}

/** The JSON body of a WEBHOOK target (payload version 1.0). */
export function webhookBody(ctx: DeliveryContext): Record<string, unknown> {
  return {
    id: ctx.deliveryId,
    payload_version: '1.0',
    type: ctx.event.type,
    trigger: ctx.trigger,
    org: ctx.event.org,
    action: ctx.action,
    subject: ctx.event.subject,
    data: ctx.event.data,
    ...(ctx.event.matched_environments ? { matched_environments: ctx.event.matched_environments } : {}),
    event_id: ctx.event.id,
    occurred_at: ctx.event.occurred_at,
    timestamp: ctx.sentAt,
  };
}

/** `X-Signature-256` of a body: HMAC-SHA256 with the target's secret over the raw bytes sent, hex. */
export function signature(secret: string, rawBody: Buffer | string): string {
  return 'sha256=' + createHmac('sha256', secret).update(rawBody).digest('hex');
}

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** One line saying what happened, in Slack's mrkdwn (`*bold*`); `plain` drops the marks. */
export function summary(event: DeliveryEvent, plain = false): string {
  const b = (v: unknown) => (plain ? str(v) : `*${str(v)}*`);
  const s = event.subject;
  const d = event.data;
  const trail = `${b(`${str(s.flow)}/${str(s.trail)}`)}`;
  // Heard only through logical environments: name them after the physical environment that changed.
  const logical = event.matched_environments ?? [];
  const env =
    b(s.environment) +
    (logical.length && !logical.includes(str(s.environment)) ? ` (logical environment${logical.length > 1 ? 's' : ''} ${logical.map(b).join(', ')})` : '');
  switch (event.type) {
    case 'trail.started':
      return `Trail ${trail} started`;
    case 'attestation.recorded':
      return `Attestation ${b(d.attestation_name)} (${str(d.attestation_type)}) recorded in ${trail}: ${d.is_compliant ? 'compliant' : 'NOT compliant'}`;
    case 'trail.compliance_changed':
      return `Trail ${trail} is now ${b(d.status)}${d.previous_status ? ` (was ${str(d.previous_status)})` : ''}`;
    case 'decision.recorded':
      return `Decision ${b(d.attestation_name)} on control ${b(d.control)} in ${trail}: ${d.is_compliant ? 'allowed' : 'DENIED'}`;
    case 'artifact.started':
      return `Artifact ${b(d.artifact_name)} started in environment ${env}`;
    case 'artifact.exited':
      return `Artifact ${b(d.artifact_name)} exited environment ${env}`;
    case 'artifact.scaled':
      return `Artifact ${b(d.artifact_name)} scaled from ${str(d.was)} to ${str(d.now)} instances in environment ${env}`;
    case 'environment.compliance_changed':
      return `Environment ${env} is now ${d.compliant ? 'compliant' : 'NOT compliant'}`;
    default:
      return `${event.type} in ${Object.values(s).map(str).join('/')}`;
  }
}

/** A Slack incoming-webhook message: a text fallback and blocks. */
export function slackMessage(ctx: DeliveryContext): Record<string, unknown> {
  const text = summary(ctx.event);
  return {
    text: `[${ctx.event.org}] ${summary(ctx.event, true)}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text } },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `Veritrail · org ${ctx.event.org} · action #${ctx.action.number} ${ctx.action.name} · ${ctx.trigger}`,
          },
        ],
      },
    ],
  };
}

/** An e-mail: subject and plain text. */
export function emailMessage(ctx: DeliveryContext): { subject: string; text: string } {
  const lines = [
    summary(ctx.event, true),
    '',
    `Organization: ${ctx.event.org}`,
    `Action: #${ctx.action.number} ${ctx.action.name} (${ctx.trigger})`,
    `Event: ${ctx.event.type} at ${new Date(ctx.event.occurred_at * 1000).toISOString()}`,
    ...Object.entries(ctx.event.subject).map(([k, v]) => `${k}: ${str(v)}`),
    ...Object.entries(ctx.event.data)
      .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
      .map(([k, v]) => `${k}: ${str(v)}`),
    '',
    `Delivery id: ${ctx.deliveryId}`,
  ];
  return { subject: `[Veritrail] ${ctx.event.org}: ${summary(ctx.event, true)}`, text: lines.join('\n') };
}
