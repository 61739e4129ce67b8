import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, ValidateNested, IsObject } from 'class-validator';

export class TenantRefBody {
  @IsString()
  teamId!: string;

  @IsString()
  projectId!: string;

  @IsOptional()
  @IsString()
  authorId?: string;
}

/** POST /internal/v1/assets/existing and /objects */
export class ExistingAssetsBody {
  @IsObject()
  @ValidateNested()
  @Type(() => TenantRefBody)
  tenant!: TenantRefBody;

  @IsArray()
  @ArrayMaxSize(10_000)
  @IsString({ each: true })
  assetIds!: string[];
}

/** POST /internal/v1/assets/upload-image */
export class UploadImageBody {
  @IsObject()
  @ValidateNested()
  @Type(() => TenantRefBody)
  tenant!: TenantRefBody;

  /** A data URL or base64 of the image (checked like POST /v1/assets). */
  @IsString()
  data!: string;

  @IsOptional()
  @IsString()
  name?: string;
}

/** POST /internal/v1/assets/copy */
export class CopyAssetsBody extends ExistingAssetsBody {
  @IsString()
  targetProjectId!: string;
}
