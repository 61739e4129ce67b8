import { Injectable, type PipeTransform } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import { isAssetId } from './asset-ids';

/** `@Param('assetId', AssetIdPipe)`: a malformed id is a 400 naming the parameter, before any query. */
@Injectable()
export class AssetIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isAssetId(value)) {
      throw ApiError.validation([{ field: 'assetId', messages: ['assetId must be an asset id (asset_ followed by letters and digits)'] }]);
    }
    return value;
  }
}
