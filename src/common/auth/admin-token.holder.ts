/** The operator token, resolved at boot (from ADMIN_TOKEN or the data folder). */
export class AdminTokenHolder {
  constructor(readonly value: string) {}
}
