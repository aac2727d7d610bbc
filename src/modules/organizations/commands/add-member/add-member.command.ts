import { Command } from '@nestjs/cqrs';
import { Role } from '../../../../common/auth/principal';

export interface AddedMember {
  email: string;
  role: Role;
  api_key: string;
}

export interface AddMemberProps {
  orgName: string;
  email: string;
  role: Role;
}

export class AddMemberCommand extends Command<AddedMember> {
  constructor(readonly props: Readonly<AddMemberProps>) {
    super();
  }
}
