import { IsString, MaxLength, MinLength } from 'class-validator';

/** What `kosli diff snapshots A B` sends: two snappishes (`prod`, `prod#3`, `staging~1`, `prod@{1.day.ago}`). */
export class DiffEnvironmentsQueryDto {
  @IsString()
  @MinLength(1)
  @MaxLength(400)
  snappish1!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(400)
  snappish2!: string;
}
