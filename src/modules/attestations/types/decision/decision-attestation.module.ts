import { Module } from '@nestjs/common';
import { ControlsModule } from '../../../controls/controls.module';
import { OutboxModule } from '../../../outbox/outbox.module';
import { AttestationTypeModule } from '../../attestation-type.module';
import { AttestDecisionHandler } from './attest-decision.handler';
import { DecisionAttestationController } from './decision-attestation.controller';
import { decisionAttestationType } from './decision-attestation.type';

/** The whole `decision` type: its definition, and the route decisions made outside the service arrive by. */
@Module({
  imports: [AttestationTypeModule.register(decisionAttestationType), ControlsModule, OutboxModule],
  controllers: [DecisionAttestationController],
  providers: [AttestDecisionHandler],
})
export class DecisionAttestationModule {}
