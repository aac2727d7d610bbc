import { Command } from '@nestjs/cqrs';
import { Role } from '../../../../common/auth/principal';

export interface AddedMember {
  email: string;
  role: Role;
  api_key: string;
}

export class AddMemberCommand extends Command<AddedMember> {
  constructor(readonly orgName: string, readonly email: string, readonly role: Role) {
    super();
  }
}
