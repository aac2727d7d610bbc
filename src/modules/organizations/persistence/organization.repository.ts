import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { OrganizationEntity } from './organization.entity';

/** Owns `organizations`. */
@Injectable()
export class OrganizationRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts a new org (a taken name fails with the unique violation, which the caller maps to 409). */
  async insert(manager: EntityManager, org: { name: string; region: string; features: string[] }): Promise<OrganizationEntity> {
    const entity = manager.create(OrganizationEntity, {
      id: randomUUID(),
      name: org.name,
      region: org.region,
      features: [...new Set(org.features)],
      createdAt: new Date(),
    });
    await manager.insert(OrganizationEntity, entity);
    return entity;
  }

  findByName(manager: EntityManager, name: string, lock = false): Promise<OrganizationEntity | null> {
    return manager.findOne(OrganizationEntity, { where: { name }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  findById(id: string): Promise<OrganizationEntity | null> {
    return this.dataSource.manager.findOneBy(OrganizationEntity, { id });
  }

  async setFeatures(manager: EntityManager, id: string, features: string[]): Promise<void> {
    await manager.update(OrganizationEntity, { id }, { features });
  }
}
