import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Flows, templates, trails, artifacts, attestations, attachments and trail moments.
 *
 * Evidence is append-only: nothing here is updated in place except the counters on flows/trails. A trail's
 * state at moment N is derived from rows stamped with moment_number <= N (latest per slot wins), so a moment
 * costs one small row however large the trail grows. Attestations carry a dense per-flow sequence number
 * (flow_seq = 1, 2, 3 ... with no gaps) so listing page P is a range scan, never an OFFSET.
 */
export class CreateEvidenceTables1763770000000 implements MigrationInterface {
  name = 'CreateEvidenceTables1763770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE flows (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        visibility text NOT NULL DEFAULT 'private',
        tags jsonb NOT NULL DEFAULT '{}',
        template_id uuid,
        attestation_count bigint NOT NULL DEFAULT 0,
        created_by text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT flows_org_name_key UNIQUE (org_id, name)
      )`);
    await q.query(`
      CREATE TABLE flow_templates (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL,
        flow_id uuid NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
        version integer NOT NULL,
        spec jsonb NOT NULL,
        source text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT flow_templates_flow_version_key UNIQUE (flow_id, version)
      )`);
    await q.query(`
      CREATE TABLE trails (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL,
        flow_id uuid NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        template_id uuid REFERENCES flow_templates(id),
        git_commit_info jsonb,
        repo_info jsonb,
        user_data jsonb NOT NULL DEFAULT '{}',
        origin_url text,
        external_urls jsonb NOT NULL DEFAULT '{}',
        last_moment integer NOT NULL DEFAULT 0,
        created_by text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT trails_flow_name_key UNIQUE (flow_id, name)
      )`);
    await q.query(`CREATE INDEX trails_org_created_idx ON trails (org_id, created_at DESC)`);
    await q.query(`CREATE INDEX trails_flow_created_idx ON trails (flow_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE trail_moments (
        trail_id uuid NOT NULL REFERENCES trails(id) ON DELETE CASCADE,
        moment_number integer NOT NULL,
        created_at timestamptz NOT NULL,
        kind text NOT NULL,
        template_id uuid,
        subject_id uuid,
        PRIMARY KEY (trail_id, moment_number)
      )`);
    await q.query(`CREATE INDEX trail_moments_time_idx ON trail_moments (trail_id, created_at)`);
    await q.query(`
      CREATE TABLE artifacts (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL,
        flow_id uuid NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
        trail_id uuid NOT NULL REFERENCES trails(id) ON DELETE CASCADE,
        moment_number integer NOT NULL,
        fingerprint text NOT NULL,
        filename text NOT NULL,
        template_reference_name text NOT NULL,
        git_commit text,
        git_commit_info jsonb,
        build_url text,
        commit_url text,
        repo_url text,
        repo_info jsonb,
        external_urls jsonb NOT NULL DEFAULT '{}',
        annotations jsonb NOT NULL DEFAULT '{}',
        reported_by text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX artifacts_trail_idx ON artifacts (trail_id, template_reference_name, moment_number)`);
    await q.query(`CREATE INDEX artifacts_fingerprint_idx ON artifacts (org_id, fingerprint)`);
    await q.query(`
      CREATE TABLE evidence_blobs (
        sha256 bytea PRIMARY KEY,
        size bigint NOT NULL,
        content bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE attestations (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL,
        flow_id uuid NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
        trail_id uuid NOT NULL REFERENCES trails(id) ON DELETE CASCADE,
        flow_seq bigint NOT NULL,
        moment_number integer NOT NULL,
        name text NOT NULL,
        artifact_name text,
        artifact_fingerprint text,
        attestation_type text NOT NULL,
        schema_version integer NOT NULL DEFAULT 1,
        is_compliant boolean NOT NULL,
        description text NOT NULL DEFAULT '',
        origin_url text,
        external_urls jsonb NOT NULL DEFAULT '{}',
        annotations jsonb NOT NULL DEFAULT '{}',
        user_data jsonb NOT NULL DEFAULT '{}',
        git_commit_info jsonb,
        repo_info jsonb,
        data jsonb NOT NULL DEFAULT '{}',
        evidence_sha256 bytea REFERENCES evidence_blobs(sha256),
        evidence_filename text,
        evidence_size bigint,
        reported_by text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT attestations_flow_seq_key UNIQUE (flow_id, flow_seq)
      )`);
    await q.query(`CREATE INDEX attestations_flow_time_idx ON attestations (flow_id, created_at, flow_seq)`);
    await q.query(`CREATE INDEX attestations_trail_slot_idx ON attestations (trail_id, artifact_name, name, moment_number)`);
    await q.query(`CREATE INDEX attestations_org_idx ON attestations (org_id, id)`);
    await q.query(`
      CREATE TABLE repos (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        external_id text NOT NULL,
        name text NOT NULL,
        url text,
        provider text,
        description text,
        namespace_path text,
        additional_info jsonb NOT NULL DEFAULT '{}',
        tags jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT repos_org_external_key UNIQUE (org_id, external_id)
      )`);
    await q.query(`CREATE INDEX repos_org_name_idx ON repos (org_id, name)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['repos', 'attestations', 'evidence_blobs', 'artifacts', 'trail_moments', 'trails', 'flow_templates', 'flows']) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
