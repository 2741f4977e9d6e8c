// FormatSidebar: the checkable list of catalog and custom formats that every view shows.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;

namespace floatscope::gui {

class LabState;

class FormatSidebar : public QWidget {
    Q_OBJECT
public:
    explicit FormatSidebar(LabState& state, QWidget* parent = nullptr);

    QListWidget* list() const { return list_; }
    /// The "add a format by name" entry (fp8_e4m3:sat, e5m3, int6 ...).
    QLineEdit* name_entry() const { return name_entry_; }

private:
    void rebuild();
    void sync_checks();
    void add_by_name();

    LabState& state_;
    QListWidget* list_ = nullptr;
    QLineEdit* name_entry_ = nullptr;
    QLabel* error_ = nullptr;
    bool syncing_ = false;  ///< the list follows the state: do not echo the change back
};

}  // namespace floatscope::gui
