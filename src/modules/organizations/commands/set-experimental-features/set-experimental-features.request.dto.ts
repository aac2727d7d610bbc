import { IsBoolean } from 'class-validator';

/** The reference's switch: every beta feature on, or every one off. */
export class SetExperimentalFeaturesRequestDto {
  @IsBoolean()
  experimental_features_enabled!: boolean;
}
