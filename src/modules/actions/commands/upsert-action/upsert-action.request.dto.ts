import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  registerDecorator,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { IsFlowName } from '../../../../common/validation/names';
import { ENVIRONMENT_NAME } from '../../domain/action-names';
import { ACTION_NAME } from '../../domain/action-names';
import { TARGET_TYPES } from '../../domain/action-target';
import { ENV_TRIGGERS, FLOW_TRIGGERS } from '../../domain/triggers';

/** A target field that only some target types take. */
function OnlyFor(types: string[]): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'onlyForTargetTypes',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: types,
      validator: {
        validate: (value: unknown, args: ValidationArguments) => value === undefined || types.includes((args.object as { type?: string }).type ?? ''),
        defaultMessage: (args?: ValidationArguments) => `is not a field of a ${(args?.object as { type?: string })?.type ?? 'typeless'} target`,
      },
    });
}

export class SlackContextDto {
  @IsString() channel_id: string;
  @IsString() channel_name: string;
  @IsString() team_id: string;
}

/** `SLACK {webhook}`, `WEBHOOK {webhook, secret?}`, `EMAIL {emails}` (target URLs are checked by the handler). */
export class ActionTargetDto {
  @IsIn(TARGET_TYPES)
  type: string;

  @OnlyFor(['SLACK', 'WEBHOOK'])
  @ValidateIf((t: ActionTargetDto) => t.type !== 'EMAIL' || t.webhook !== undefined)
  @IsString()
  @MaxLength(2048)
  webhook?: string;

  /** The HMAC-SHA256 key of X-Signature-256; never shown again. */
  @OnlyFor(['WEBHOOK'])
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  secret?: string;

  @OnlyFor(['EMAIL'])
  @ValidateIf((t: ActionTargetDto) => t.type === 'EMAIL' || t.emails !== undefined)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsEmail({}, { each: true })
  emails?: string[];

  @OnlyFor(['WEBHOOK'])
  @IsOptional()
  @IsIn(['1.0'])
  payload_version?: string;

  /** A chat-app integration's channel (kept as sent). */
  @OnlyFor(['SLACK'])
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SlackContextDto)
  context?: SlackContextDto | null;

  // Shown on the reference's targets: accepted so that a target read back can be sent again, and ignored.
  @IsOptional() @IsNumber() last_success_at?: number | null;
  @IsOptional() @IsNumber() last_failure_at?: number | null;
}

abstract class UpsertActionRequestDto {
  @IsString()
  @MaxLength(256)
  @Matches(ACTION_NAME, { message: `must match ${ACTION_NAME.source}` })
  name: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ActionTargetDto)
  targets: ActionTargetDto[];
}

export class UpsertFlowActionRequestDto extends UpsertActionRequestDto {
  @IsOptional()
  @IsIn(['flow'])
  type?: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsFlowName({ each: true })
  flows: string[];

  @IsArray()
  @ArrayMinSize(1)
  @IsIn(FLOW_TRIGGERS, { each: true })
  triggers: string[];
}

export class UpsertEnvironmentActionRequestDto extends UpsertActionRequestDto {
  @IsOptional()
  @IsIn(['env'])
  type?: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(256, { each: true })
  @Matches(ENVIRONMENT_NAME, { each: true, message: `each item must match ${ENVIRONMENT_NAME.source}` })
  environments: string[];

  @IsArray()
  @ArrayMinSize(1)
  @IsIn(ENV_TRIGGERS, { each: true })
  triggers: string[];
}
