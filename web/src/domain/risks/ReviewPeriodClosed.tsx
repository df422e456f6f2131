import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { PERIOD_CLOSED_NOTICE } from '../../boot/bootFrame';

/** The warning over a review screen while no review period is active. */
export function ReviewPeriodClosed({
  className,
  children = PERIOD_CLOSED_NOTICE.text,
}: {
  className?: string;
  /** What is locked meanwhile. */
  children?: ReactNode;
}) {
  return (
    <MessageBar intent="warning" className={className} layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>{PERIOD_CLOSED_NOTICE.title}</MessageBarTitle>
        {children}
      </MessageBarBody>
    </MessageBar>
  );
}
