import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OrgDirectory, ResolvedOrg } from '../../../common/auth/auth-ports';
import { Principal, Role } from '../../../common/auth/principal';
import { TtlCache } from '../../../common/cache/ttl-cache';
import { Clock } from '../../../common/clock/clock';

/** Org lookups for the org guard, cached briefly; the admin commands evict what they change. */
@Injectable()
export class OrganizationReader extends OrgDirectory {
  private readonly byName: TtlCache<string, ResolvedOrg | null>;
  private readonly roles: TtlCache<string, Role | null>;

  constructor(
    private readonly dataSource: DataSource,
    clock: Clock,
  ) {
    super();
    this.byName = new TtlCache(clock, 3_000);
    this.roles = new TtlCache(clock, 3_000);
  }

  async findByName(name: string): Promise<ResolvedOrg | null> {
    let org = this.byName.get(name);
    if (org === undefined) {
      const rows = await this.dataSource.query(
        `SELECT id, name, region, features FROM organizations WHERE name = $1`,
        [name],
      );
      org = rows[0] ?? null;
      this.byName.set(name, org ?? null);
    }
    return org ?? null;
  }

  async roleOf(org: ResolvedOrg, principal: Principal): Promise<Role | null> {
    if (principal.kind === 'service_account') {
      return principal.orgId === org.id ? (principal.role ?? null) : null;
    }
    const key = `${org.id}:${principal.id}`;
    let role = this.roles.get(key);
    if (role === undefined) {
      const rows = await this.dataSource.query(
        `SELECT role FROM memberships WHERE org_id = $1 AND user_id = $2`,
        [org.id, principal.id],
      );
      role = (rows[0]?.role as Role) ?? null;
      this.roles.set(key, role);
    }
    return role;
  }

  evict(orgName: string): void {
    this.byName.delete(orgName);
    this.roles.clear();
  }
}
