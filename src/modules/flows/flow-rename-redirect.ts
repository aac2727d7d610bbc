import { Injectable } from '@nestjs/common';
import { RenameRedirects } from '../../common/http/rename-redirect';
import { FlowRenameRepository } from './persistence/flow-rename.repository';

/** A flow's old name in a path answers 308 to the same request under its current name (every route naming a flow). */
@Injectable()
export class FlowRenameRedirect {
  constructor(redirects: RenameRedirects, renames: FlowRenameRepository) {
    redirects.register({ kind: 'Flow', params: ['flow', 'flow_name'], currentName: (orgId, oldName) => renames.currentName(orgId, oldName) });
  }
}
