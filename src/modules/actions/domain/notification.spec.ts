import { createHmac } from 'node:crypto';
import { DeliveryContext, emailMessage, signature, slackMessage, summary, webhookBody } from './notification';

const ctx: DeliveryContext = {
  deliveryId: 'd-1',
  trigger: 'ON_ATTESTATION',
  action: { number: 3, name: 'release', type: 'flow' },
  event: {
    id: '42',
    type: 'attestation.recorded',
    org: 'acme',
    subject: { flow: 'app', trail: 't1' },
    data: { attestation_name: 'unit', attestation_type: 'generic', is_compliant: false },
    occurred_at: 1_700_000_000.5,
  },
  sentAt: 1_700_000_001,
};

describe('notification content', () => {
  it('a webhook body carries the delivery id, the event and the send time', () => {
    expect(webhookBody(ctx)).toEqual({
      id: 'd-1',
      payload_version: '1.0',
      type: 'attestation.recorded',
      trigger: 'ON_ATTESTATION',
      org: 'acme',
      action: { number: 3, name: 'release', type: 'flow' },
      subject: { flow: 'app', trail: 't1' },
      data: { attestation_name: 'unit', attestation_type: 'generic', is_compliant: false },
      event_id: '42',
      occurred_at: 1_700_000_000.5,
      timestamp: 1_700_000_001,
    });
  });

  it('signs the raw body with HMAC-SHA256', () => {
    const raw = JSON.stringify(webhookBody(ctx));
    expect(signature('s3cret', raw)).toBe('sha256=' + createHmac('sha256', 's3cret').update(raw).digest('hex'));
  });

  it('summarises events for people', () => {
    expect(summary(ctx.event)).toBe('Attestation *unit* (generic) recorded in *app/t1*: NOT compliant');
    expect(summary({ ...ctx.event, type: 'trail.compliance_changed', data: { status: 'COMPLIANT', previous_status: 'INCOMPLETE' } }, true)).toBe(
      'Trail app/t1 is now COMPLIANT (was INCOMPLETE)',
    );
    const slack = slackMessage(ctx) as { text: string; blocks: Array<{ type: string }> };
    expect(slack.text).toBe('[acme] Attestation unit (generic) recorded in app/t1: NOT compliant');
    expect(slack.blocks.map((b) => b.type)).toEqual(['section', 'context']);
    const mail = emailMessage(ctx);
    expect(mail.subject).toBe('[Veritrail] acme: Attestation unit (generic) recorded in app/t1: NOT compliant');
    expect(mail.text).toContain('Delivery id: d-1');
    expect(mail.text).toContain('attestation_name: unit');
  });

  it('an environment action says which of its environments it heard the change by', () => {
    const env: DeliveryContext = {
      ...ctx,
      trigger: 'ON_STARTED_ARTIFACT',
      action: { number: 4, name: 'prod-watch', type: 'env' },
      event: {
        id: '43',
        type: 'artifact.started',
        org: 'acme',
        subject: { environment: 'prod-eu', environment_type: 'K8S', logical_environments: ['prod'], artifact_name: 'web' },
        data: { artifact_name: 'web' },
        occurred_at: 1_700_000_000.5,
        matched_environments: ['prod'],
      },
    };
    expect(webhookBody(env)).toMatchObject({ subject: { environment: 'prod-eu', logical_environments: ['prod'] }, matched_environments: ['prod'] });
    expect(summary(env.event)).toBe('Artifact *web* started in environment *prod-eu* (logical environment *prod*)');
    expect(summary({ ...env.event, matched_environments: ['all', 'prod'] }, true)).toBe('Artifact web started in environment prod-eu (logical environments all, prod)');
    // Named directly, the physical environment is all there is to say.
    expect(summary({ ...env.event, matched_environments: ['prod', 'prod-eu'] }, true)).toBe('Artifact web started in environment prod-eu');
    expect(emailMessage(env).subject).toBe('[Veritrail] acme: Artifact web started in environment prod-eu (logical environment prod)');
    const scaled = { ...env.event, type: 'artifact.scaled', data: { artifact_name: 'web', instance_count: 3, was: 2, now: 3 } };
    expect(summary(scaled, true)).toBe('Artifact web scaled from 2 to 3 instances in environment prod-eu (logical environment prod)');
    // A flow action's body has no such field.
    expect(webhookBody(ctx)).not.toHaveProperty('matched_environments');
  });
});
