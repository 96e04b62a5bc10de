import { Flex, Tooltip } from 'antd';
import { FileOutlined, FileTextOutlined, PlayCircleFilled } from '@ant-design/icons';
import { mediaKind } from '@release/contract';
import { fileNameOf, isThumbnailImage } from './media-view.ts';
import { mediaText } from './media.strings.ts';
import './media.css';

interface MediaThumbsProps {
  urls: string[];
  onOpen: (index: number) => void;
  size?: number;
}

function ThumbContent({ url }: { url: string }) {
  const kind = mediaKind(url);
  if (kind === 'image' && isThumbnailImage(url)) return <img src={url} alt={fileNameOf(url)} loading="lazy" />;
  if (kind === 'video') return <PlayCircleFilled className="media-thumb-icon" aria-label={mediaText.video} />;
  if (kind === 'json') return <FileTextOutlined className="media-thumb-icon" aria-label={mediaText.json} />;
  return <FileOutlined className="media-thumb-icon" aria-label={mediaText.file} />;
}

/** SPEC §5 media: image thumbnails, video / JSON / file tiles; each opens the lightbox. */
export function MediaThumbs({ urls, onOpen, size = 72 }: MediaThumbsProps) {
  if (urls.length === 0) return null;
  return (
    <Flex gap={8} wrap data-testid="media-thumbs">
      {urls.map((url, index) => (
        <Tooltip key={`${url}-${index}`} title={fileNameOf(url)}>
          <button
            type="button"
            className="media-thumb"
            style={{ width: size, height: size }}
            onClick={() => onOpen(index)}
            data-testid="media-thumb"
            data-kind={mediaKind(url)}
          >
            <ThumbContent url={url} />
          </button>
        </Tooltip>
      ))}
    </Flex>
  );
}
