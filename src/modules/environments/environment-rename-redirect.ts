import { Injectable } from '@nestjs/common';
import { RenameRedirects } from '../../common/http/rename-redirect';
import { EnvironmentRenameRepository } from './persistence/environment-rename.repository';

/** An environment's old name in a path or a query field answers 308 to the same request under its current name. */
@Injectable()
export class EnvironmentRenameRedirect {
  constructor(redirects: RenameRedirects, renames: EnvironmentRenameRepository) {
    redirects.register({
      kind: 'Environment',
      currentName: (orgId, oldName) => renames.currentName(orgId, oldName),
      renamedAway: (orgId, oldName) => renames.renamedAway(orgId, oldName),
    });
  }
}
