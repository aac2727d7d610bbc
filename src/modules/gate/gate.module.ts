import { Module } from '@nestjs/common';
import { ControlsModule } from '../controls/controls.module';
import { EnvironmentsModule } from '../environments/environments.module';
import { PoliciesModule } from '../policies/policies.module';
import { AdmissionTlsListener } from './admission-tls.listener';
import { AllowArtifactHandler } from './commands/allow-artifact/allow-artifact.handler';
import { ChangePoliciesHandler } from './commands/change-policies/change-policies.handler';
import { EnvironmentPoliciesController } from './environment-policies.controller';
import { ControlCoverageController } from './control-coverage.controller';
import { GateController } from './gate.controller';
import { GetControlCoverageHandler } from './queries/get-control-coverage/get-control-coverage.handler';
import { AssertArtifactHandler } from './queries/assert-artifact/assert-artifact.handler';
import { ArtifactAssertions } from './queries/assert-artifact/artifact-assertions';
import { AssertArtifactEnvironmentsHandler } from './queries/assert-artifact-environments/assert-artifact-environments.handler';
import { ListAllowlistsHandler } from './queries/list-allowlists/list-allowlists.handler';
import { ReviewAdmissionHandler } from './queries/review-admission/review-admission.handler';

/**
 * The deployment gate (README.md): attaching policies to environments, allow-lists, `assert artifact`, the
 * Kubernetes admission webhook, and a control's coverage (the environments whose policies require it). Owns no
 * table: policies and allow-lists are the policies module's, snapshots the environments module's, controls the
 * controls module's; it calls their facades (PolicyGate, EnvironmentGate, ControlDirectory). With `ADMISSION_TLS_*` set,
 * the webhook is also served on its own mutual-TLS port (AdmissionTlsListener).
 */
@Module({
  imports: [PoliciesModule, EnvironmentsModule, ControlsModule],
  controllers: [EnvironmentPoliciesController, GateController, ControlCoverageController],
  providers: [ChangePoliciesHandler, AllowArtifactHandler, ListAllowlistsHandler, AssertArtifactHandler, ArtifactAssertions, AssertArtifactEnvironmentsHandler, ReviewAdmissionHandler, AdmissionTlsListener, GetControlCoverageHandler],
})
export class GateModule {}
