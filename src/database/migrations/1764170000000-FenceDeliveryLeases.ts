import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery's lease gets a token: each attempt that takes the lease writes a new one, and recording the attempt
 * (or giving the lease back) only applies while the row still holds that token. An attempt that outlived its
 * lease (a stalled process) then records nothing over the attempt that took the delivery after it, instead of
 * both counting as the delivery's attempt and the later one's state being overwritten by the earlier's.
 */
export class FenceDeliveryLeases1764170000000 implements MigrationInterface {
  name = 'FenceDeliveryLeases1764170000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE action_deliveries ADD COLUMN lease_token uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE action_deliveries DROP COLUMN lease_token`);
  }
}
