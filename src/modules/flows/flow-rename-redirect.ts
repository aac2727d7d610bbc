import { Injectable } from '@nestjs/common';
import { RenameRedirects } from '../../common/http/rename-redirect';
import { FlowRenameRepository } from './persistence/flow-rename.repository';

/** A flow's old name in a path or a query field answers 308 to the same request under its current name (every route naming a flow). */
@Injectable()
export class FlowRenameRedirect {
  constructor(redirects: RenameRedirects, renames: FlowRenameRepository) {
    redirects.register({
      kind: 'Flow',
      currentName: (orgId, oldName) => renames.currentName(orgId, oldName),
      renamedAway: (orgId, oldName) => renames.renamedAway(orgId, oldName),
    });
  }
}
