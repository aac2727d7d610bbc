import * as fs from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as any).__veritrailDb;
  if (!state) return;
  await state.db.stop();
  fs.rmSync(state.dir, { recursive: true, force: true });
}
