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
import { targetFieldUse, targetTypeNames } from '../../targets/notification-target.registry';
import type { TargetFieldName } from '../../targets/notification-target';
import { JSONSchema } from 'class-validator-jsonschema';
import { ENV_TRIGGERS, FLOW_TRIGGERS } from '../../domain/triggers';

/**
 * A target field: refused on a target whose type does not take it, validated when the type requires it or it is
 * given (the registered target types say which fields they take; targets/notification-target.ts).
 */
function TargetField(field: TargetFieldName): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'onlyForTargetTypes',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [field],
      validator: {
        validate: (value: unknown, args: ValidationArguments) => value === undefined || targetFieldUse((args.object as { type?: string }).type, field) !== undefined,
        defaultMessage: (args?: ValidationArguments) => `is not a field of a ${(args?.object as { type?: string })?.type ?? 'typeless'} target`,
      },
    });
    ValidateIf((t: ActionTargetDto) => targetFieldUse(t.type, field) === 'required' || (t as unknown as Record<string, unknown>)[field] !== undefined)(target, propertyName);
  };
}

/** `type`: one of the registered target types (as `@IsIn` says it, with the list as it is at validation time). */
function IsTargetType(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isTargetType',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && targetTypeNames().includes(value),
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be one of the following values: ${targetTypeNames().join(', ')}`,
      },
    });
    JSONSchema(() => ({ type: 'string', enum: targetTypeNames() }))(target, propertyName as string);
  };
}

export class SlackContextDto {
  @IsString() channel_id: string;
  @IsString() channel_name: string;
  @IsString() team_id: string;
}

/** `SLACK {webhook}`, `WEBHOOK {webhook, secret?}`, `EMAIL {emails}`, or a registered type's fields (target URLs are checked by the handler). */
export class ActionTargetDto {
  @IsTargetType()
  type: string;

  @TargetField('webhook')
  @IsString()
  @MaxLength(2048)
  webhook?: string;

  /** The HMAC-SHA256 key of X-Signature-256; never shown again. */
  @TargetField('secret')
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  secret?: string;

  @TargetField('emails')
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsEmail({}, { each: true })
  emails?: string[];

  @TargetField('payload_version')
  @IsOptional()
  @IsIn(['1.0'])
  payload_version?: string;

  /** A chat-app integration's channel (kept as sent). */
  @TargetField('context')
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
