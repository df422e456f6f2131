import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import type { ReactNode } from 'react';

/** The warning over a review screen while no review period is active. */
export function ReviewPeriodClosed({
  className,
  children = 'No review period is active. Decisions are locked until a review period is opened from the dashboard.',
}: {
  className?: string;
  /** What is locked meanwhile. */
  children?: ReactNode;
}) {
  return (
    <MessageBar intent="warning" className={className} layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>Review Period Closed</MessageBarTitle>
        {children}
      </MessageBarBody>
    </MessageBar>
  );
}
