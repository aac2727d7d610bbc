import { IsString, Length } from 'class-validator';

export class StartWebSessionRequestDto {
  /** A personal API key (or a service account's): exchanged for the session, never stored. */
  @IsString()
  @Length(1, 256)
  api_key!: string;
}
