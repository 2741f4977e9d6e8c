// StoryButton: a story's title and claim as one button, in the widget's own font. QCommandLinkButton,
// which it replaces, paints both at a fixed 9 pt that presentation mode cannot enlarge.
#pragma once

#include <QAbstractButton>

namespace floatscope::gui {

class StoryButton : public QAbstractButton {
    Q_OBJECT
public:
    StoryButton(const QString& title, const QString& summary, QWidget* parent = nullptr);

    const QString& summary() const { return summary_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QFont title_font() const;  ///< the widget's font, bold and a little larger
    int margin() const;
    int icon_extent() const;
    /// Where the title and the summary go in a button of this width, from the top.
    QRect title_rect(int width) const;
    QRect summary_rect(int width) const;

    QString summary_;
};

}  // namespace floatscope::gui
