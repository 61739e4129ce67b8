import { IsArray, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { defineEvent } from '../envelope/define-event';
import { TOPICS } from '../topics/topics';

export const ASSET_PRIVACIES = ['private', 'public', 'unlisted'] as const;
export type AssetPrivacy = (typeof ASSET_PRIVACIES)[number];

/** A fact about one asset, published by asset-service for other services. Key: assetId. */
export class AssetFactData {
  @IsString()
  @Matches(/^asset_[0-9A-Za-z]+$/)
  assetId!: string;

  @IsString()
  teamId!: string;

  @IsString()
  projectId!: string;

  /** One of the spec's asset type values. */
  @IsString()
  type!: string;

  @IsIn(ASSET_PRIVACIES as unknown as string[])
  privacy!: AssetPrivacy;

  @IsOptional()
  @IsString()
  parentId?: string;

  @IsOptional()
  @IsString()
  rootParentId?: string;

  /** The job whose output this asset is, when it is one. */
  @IsOptional()
  @IsString()
  jobId?: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  tags?: string[];
}

const asset = <T extends string>(type: T) =>
  defineEvent({ type, topic: TOPICS.assetEvents, payload: AssetFactData, keyField: 'assetId' });

export const AssetCreated = asset('asset.created');
export const AssetUpdated = asset('asset.updated');
/** The asset is gone: collections drop it, derived data may be cleaned up. */
export const AssetDeleted = asset('asset.deleted');
